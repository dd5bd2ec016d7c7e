package io.dpspectra.noise;

/**
 * The table of {@link DiscreteSamplers#minusLogTwoWords}: for cell j of [1/2, 1) (256 cells, midpoint
 * m_j = 1/2 + (j + 1/2)/512, INV[j] = 1/m_j rounded to a double), ln(1/INV[j]) as a double-double
 * (HI[j] + LO[j], |LO[j]| ≤ ulp(HI[j])/2, to about 2^−106 relative).
 *
 * <p>Constants rather than a computation at class load: the 45-digit BigDecimal series that defines them
 * took about 60 ms of a cold JVM, most of the noise set-up of a small release (docs/benchmarks/csv.md,
 * "Start-up"). {@code LogTableTest} recomputes every entry with that series and requires the same bits,
 * and checks the ln 2 constants of {@link DiscreteSamplers} the same way.
 */
final class LogTable {
    /** Number of cells, 2^8. */
    static final int CELLS = 256;

    /** 1/m_j rounded to a double, m_j the midpoint of cell j (an exact dyadic). */
    static final double[] INV = new double[CELLS];

    /** High parts of ln(1/INV[j]). */
    static final double[] HI = {
            -0x1.61e46fda56466p-1, -0x1.5fe66db228992p-1, -0x1.5dea65985a35p-1, -0x1.5bf053a48690ep-1,
            -0x1.59f833f9d429p-1, -0x1.580202c6c7353p-1, -0x1.560dbc45153c7p-1, -0x1.541b5cb979809p-1,
            -0x1.522ae0738a3d8p-1, -0x1.503c43cd8eb68p-1, -0x1.4e4f832c560ddp-1, -0x1.4c649aff0ee16p-1,
            -0x1.4a7b87bf1fa82p-1, -0x1.489445efffcccp-1, -0x1.46aed21f117fcp-1, -0x1.44cb28e37c3eep-1,
            -0x1.42e946de080cp-1, -0x1.410928b8f950fp-1, -0x1.3f2acb27ed6c7p-1, -0x1.3d4e2ae7b7e2bp-1,
            -0x1.3b7344be40311p-1, -0x1.399a157a603e7p-1, -0x1.37c299f3c366ap-1, -0x1.35eccf0ac61dp-1,
            -0x1.3418b1a85622cp-1, -0x1.32463ebdd34eap-1, -0x1.30757344f0e13p-1, -0x1.2ea64c3f97654p-1,
            -0x1.2cd8c6b7c716fp-1, -0x1.2b0cdfbf7ad03p-1, -0x1.294294708b773p-1, -0x1.2779e1ec93ecbp-1,
            -0x1.25b2c55cd5762p-1, -0x1.23ed3bf21ca33p-1, -0x1.222942e4a6a9dp-1, -0x1.2066d7740737ep-1,
            -0x1.1ea5f6e70eb83p-1, -0x1.1ce69e8bb106bp-1, -0x1.1b28cbb6ec93ep-1, -0x1.196c7bc4b1f3ap-1,
            -0x1.17b1ac17cbd5bp-1, -0x1.15f85a19c765cp-1, -0x1.1440833add112p-1, -0x1.128a24f1d9affp-1,
            -0x1.10d53cbc080f8p-1, -0x1.0f21c81d1adc3p-1, -0x1.0d6fc49f16e93p-1, -0x1.0bbf2fd23dd41p-1,
            -0x1.0a10074cf9019p-1, -0x1.086248abc4f3bp-1, -0x1.06b5f1911cf52p-1, -0x1.050affa5671a5p-1,
            -0x1.03617096e0952p-1, -0x1.01b942198a5a1p-1, -0x1.001271e716158p-1, -0x1.fcd9fb7da6defp-2,
            -0x1.f991c6cb3b37ap-2, -0x1.f64c414b926c5p-2, -0x1.f309669e24cf9p-2, -0x1.efc9326d16ab9p-2,
            -0x1.ec8ba06d15ad8p-2, -0x1.e950ac5d36dc1p-2, -0x1.e6185206d516fp-2, -0x1.e2e28d3d701ccp-2,
            -0x1.dfaf59de8c15ep-2, -0x1.dc7eb3d1919ebp-2, -0x1.d9509707ae52fp-2, -0x1.d624ff7bb5d46p-2,
            -0x1.d2fbe932034c8p-2, -0x1.cfd550385b659p-2, -0x1.ccb130a5cebbp-2, -0x1.c98f869a9cbbcp-2,
            -0x1.c6704e4016ff7p-2, -0x1.c35383c8850bp-2, -0x1.c039236f08819p-2, -0x1.bd21297781c3p-2,
            -0x1.ba0b922e74f23p-2, -0x1.b6f859e8ef639p-2, -0x1.b3e77d046d728p-2, -0x1.b0d8f7e6c0b84p-2,
            -0x1.adccc6fdf6a8p-2, -0x1.aac2e6c03f895p-2, -0x1.a7bb53abd5d21p-2, -0x1.a4b60a46e5dd2p-2,
            -0x1.a1b3071f75fd9p-2, -0x1.9eb246cb4eea2p-2, -0x1.9bb3c5e7e4814p-2, -0x1.98b7811a3ee5cp-2,
            -0x1.95bd750ee3ed3p-2, -0x1.92c59e79c0e55p-2, -0x1.8fcffa1614aap-2, -0x1.8cdc84a65a0bep-2,
            -0x1.89eb3af432875p-2, -0x1.86fc19d05148ep-2, -0x1.840f1e12667f1p-2, -0x1.812444990af64p-2,
            -0x1.7e3b8a49ac007p-2, -0x1.7b54ec1077a48p-2, -0x1.787066e04915fp-2, -0x1.758df7b29572cp-2,
            -0x1.72ad9b8758c6p-2, -0x1.6fcf4f65034fdp-2, -0x1.6cf31058670ecp-2, -0x1.6a18db74a58c4p-2,
            -0x1.6740add31de95p-2, -0x1.646a84935b2a3p-2, -0x1.61965cdb02c1ep-2, -0x1.5ec433d5c35aep-2,
            -0x1.5bf406b543db1p-2, -0x1.5925d2b112a59p-2, -0x1.565995069514cp-2, -0x1.538f4af8f72fcp-2,
            -0x1.50c6f1d11b97bp-2, -0x1.4e0086dd8baccp-2, -0x1.4b3c077267e9ap-2, -0x1.487970e958771p-2,
            -0x1.45b8c0a17df12p-2, -0x1.42f9f3ff62641p-2, -0x1.403d086cea79bp-2, -0x1.3d81fb5946dbcp-2,
            -0x1.3ac8ca38e5c5dp-2, -0x1.3811728564cb2p-2, -0x1.355bf1bd82c8bp-2, -0x1.32a84565120a9p-2,
            -0x1.2ff66b04ea9d5p-2, -0x1.2d46602adccefp-2, -0x1.2a982269a3dbep-2, -0x1.27ebaf58d8c9cp-2,
            -0x1.25410494e56c8p-2, -0x1.22981fbef797ap-2, -0x1.1ff0fe7cf47a9p-2, -0x1.1d4b9e796c245p-2,
            -0x1.1aa7fd638d33ep-2, -0x1.180618ef18adep-2, -0x1.1565eed455fc2p-2, -0x1.12c77cd00713cp-2,
            -0x1.102ac0a35cc1bp-2, -0x1.0d8fb813eb1efp-2, -0x1.0af660eb9e278p-2, -0x1.085eb8f8ae799p-2,
            -0x1.05c8be0d9635ap-2, -0x1.03346e0106062p-2, -0x1.00a1c6adda472p-2, -0x1.fc218be620a5fp-3,
            -0x1.f702d36777dfp-3, -0x1.f1e75fadf9bdep-3, -0x1.eccf2c8fe920bp-3, -0x1.e7ba35eb77e2ap-3,
            -0x1.e2a877a6b2c0fp-3, -0x1.dd99edaf6d7e9p-3, -0x1.d88e93fb2f451p-3, -0x1.d38666871f467p-3,
            -0x1.ce816157f1985p-3, -0x1.c97f8079d44ecp-3, -0x1.c480c0005cccfp-3, -0x1.bf851c067555cp-3,
            -0x1.ba8c90ae4ad19p-3, -0x1.b5971a213acd9p-3, -0x1.b0a4b48fc1b44p-3, -0x1.abb55c31693aep-3,
            -0x1.a6c90d44b704cp-3, -0x1.a1dfc40f1b7f1p-3, -0x1.9cf97cdce0ec1p-3, -0x1.981634011aa74p-3,
            -0x1.9335e5d594985p-3, -0x1.8e588ebac2dc1p-3, -0x1.897e2b17b19a6p-3, -0x1.84a6b759f512dp-3,
            -0x1.7fd22ff599d4cp-3, -0x1.7b0091651528bp-3, -0x1.7631d82935a84p-3, -0x1.716600c914055p-3,
            -0x1.6c9d07d203fc4p-3, -0x1.67d6e9d78577p-3, -0x1.6313a37335d76p-3, -0x1.5e533144c1718p-3,
            -0x1.59958ff1d52f4p-3, -0x1.54dabc26105d3p-3, -0x1.5022b292f6a45p-3, -0x1.4b6d6fefe22a5p-3,
            -0x1.46baf0f9f5db8p-3, -0x1.420b32740fdd6p-3, -0x1.3d5e3126bc281p-3, -0x1.38b3e9e027477p-3,
            -0x1.340c59741142dp-3, -0x1.2f677cbbc0a98p-3, -0x1.2ac55095f5c5bp-3, -0x1.2625d1e6ddf55p-3,
            -0x1.2188fd9807266p-3, -0x1.1ceed09853755p-3, -0x1.185747dbecf34p-3, -0x1.13c2605c398bfp-3,
            -0x1.0f301717cf0fbp-3, -0x1.0aa06912675d5p-3, -0x1.06135354d4b19p-3, -0x1.0188d2ecf613ep-3,
            -0x1.fa01c9db57ce7p-4, -0x1.f0f70cdd992e4p-4, -0x1.e7f1691a32d3ap-4, -0x1.def0d8d466dbbp-4,
            -0x1.d5f55659210e1p-4, -0x1.ccfedbfee13a8p-4, -0x1.c40d6425a5cb4p-4, -0x1.bb20e936d6976p-4,
            -0x1.b23965a52ff04p-4, -0x1.a956d3ecade6p-4, -0x1.a0792e9277cadp-4, -0x1.97a07024cbe6ep-4,
            -0x1.8ecc933aeb6e2p-4, -0x1.85fd927506a46p-4, -0x1.7d33687c293c8p-4, -0x1.746e100226edbp-4,
            -0x1.6bad83c1883bap-4, -0x1.62f1be7d7774ap-4, -0x1.5a3abb01ade21p-4, -0x1.5188742261311p-4,
            -0x1.48dae4bc3101dp-4, -0x1.403207b414b79p-4, -0x1.378dd7f74970fp-4, -0x1.2eee507b402ffp-4,
            -0x1.26536c3d8c36cp-4, -0x1.1dbd2643d1913p-4, -0x1.152b799bb3cdp-4, -0x1.0c9e615ac4e19p-4,
            -0x1.0415d89e7444bp-4, -0x1.f723b517fc51fp-5, -0x1.e624c4a0b5e15p-5, -0x1.d52ed6405d87ap-5,
            -0x1.c441e06f72a93p-5, -0x1.b35dd9b58baa8p-5, -0x1.a282b8a936174p-5, -0x1.91b073efd7314p-5,
            -0x1.80e7023d8ccc8p-5, -0x1.70265a550e77bp-5, -0x1.5f6e73078efc3p-5, -0x1.4ebf43349e26ap-5,
            -0x1.3e18c1ca0ae99p-5, -0x1.2d7ae5c3c5bb7p-5, -0x1.1ce5a62bc354p-5, -0x1.0c58fa19dfaabp-5,
            -0x1.f7a9b16782855p-6, -0x1.d6b272597981fp-6, -0x1.b5cc258b718e7p-6, -0x1.94f6b99a24473p-6,
            -0x1.74321d3d006d2p-6, -0x1.537e3f45f354ep-6, -0x1.32db0ea132e1p-6, -0x1.12487a5507f68p-6,
            -0x1.e38ce303331p-7, -0x1.a2a9c6c17044dp-7, -0x1.61e77e8b53f9fp-7, -0x1.2145e939ef1bcp-7,
            -0x1.c189cbb0e283fp-8, -0x1.40c8a7478788dp-8, -0x1.809048289860ap-9, -0x1.0020055655885p-10
    };

    /** Low parts of ln(1/INV[j]). */
    static final double[] LO = {
            -0x1.08f3a2bcc162dp-55, 0x1.4b573b49d4725p-55, 0x1.fe6d0ef7bbb48p-57, 0x1.50b8176488535p-57,
            0x1.4eca8e8d3f471p-55, 0x1.8892b2c43ded3p-55, 0x1.bbbb5c3530094p-55, -0x1.0b8b8e9ae57d5p-55,
            -0x1.9205931d65a1ap-58, 0x1.723c69cd3477cp-55, -0x1.afbb95e53a353p-55, -0x1.1116cac982a23p-57,
            -0x1.be4eb6653ca5ep-56, -0x1.51a88f72f3768p-58, -0x1.2abe41f8e9f3dp-55, -0x1.76fc1502daff7p-56,
            0x1.f7eba6d788e03p-55, -0x1.b21b962fa5df6p-55, 0x1.59ca5d6af4ac3p-55, 0x1.c0206f225c4cep-62,
            -0x1.5a943a05214fcp-56, -0x1.5c311436c48cap-55, -0x1.fe396083f7145p-55, 0x1.8e916bc7308c6p-56,
            -0x1.1be69ffaf74f9p-55, -0x1.14772695b06fdp-55, -0x1.742b317819db2p-55, -0x1.945bea37ccec7p-56,
            0x1.e37276ab678cfp-57, 0x1.2dbf9e9688bbap-55, -0x1.c214d5dc54fa3p-56, 0x1.9046653243a36p-55,
            0x1.bcbfe15afea27p-56, 0x1.ece4253b1f343p-58, 0x1.a19ee448d0d68p-56, -0x1.0b4147ce35eb1p-55,
            0x1.9028ff35c8d4p-57, -0x1.4cc3339e53ffep-57, -0x1.a576deed3a16fp-55, -0x1.cd3d6627a7a53p-55,
            0x1.a152362da43dbp-55, 0x1.a1b2357e1916dp-57, 0x1.321573a077632p-56, -0x1.f9a6f9baf3281p-55,
            -0x1.a65aa7b57b55cp-57, 0x1.3a763b3a823fbp-57, -0x1.27761eb5d8127p-55, -0x1.c2b5af35cc86fp-59,
            0x1.08bdcfe3f4a76p-60, -0x1.1785569ea2a3bp-56, -0x1.4d699d2bd4a25p-55, -0x1.84e1aa3b8eeecp-55,
            0x1.673d801074ee4p-56, -0x1.e75498efb4d58p-55, -0x1.7da2ec1ed2dc2p-55, -0x1.4a180968a47bdp-57,
            -0x1.6a65066f980a1p-56, 0x1.845c1f65682d7p-56, -0x1.dbff186372817p-58, -0x1.610342c7348b7p-56,
            -0x1.1e5a50b440ebbp-56, 0x1.0ed067aa900fap-57, 0x1.74d9fe08c2a47p-56, -0x1.fcd3898919cabp-56,
            0x1.580d3ba0c740ep-58, 0x1.84723441293acp-61, -0x1.877579caf1cd8p-57, -0x1.ad192c235eeccp-56,
            0x1.66bc387953e2bp-56, 0x1.d4eceb3a0d5aap-59, -0x1.deddfb97b73f2p-56, 0x1.1acbc9dd6a567p-56,
            -0x1.e960f17e68ffep-57, 0x1.d10930ce92702p-57, 0x1.ebca50add458fp-59, -0x1.15123c20de3a5p-57,
            0x1.31027a1a63581p-56, -0x1.8a5e110799815p-56, -0x1.411ca267523abp-60, -0x1.4227e04b2bb46p-56,
            -0x1.2ee25bb438b43p-57, 0x1.4390addc75edep-57, -0x1.892032def810ep-56, -0x1.d30fba62d454ap-56,
            -0x1.b897bab6eae82p-56, 0x1.462c31b11bb1dp-56, -0x1.ce37aebce862ap-57, -0x1.63a5b660893d8p-57,
            0x1.eec1924913abfp-56, 0x1.2df8c02cf29d8p-56, -0x1.7a188558e1f94p-56, -0x1.f95a94351f53bp-58,
            -0x1.2860f2227164bp-56, -0x1.bc8edbd999effp-56, 0x1.9422380c9f6b7p-56, 0x1.112999427a2c5p-56,
            0x1.c62e80b4b3e93p-56, 0x1.ab4a28f81eb9cp-56, 0x1.f7604809c2e1dp-60, 0x1.2f7ac8fd73293p-57,
            0x1.1f675ec2d1bf1p-57, 0x1.a4afc8f39eba6p-57, 0x1.c1bb58f572574p-56, -0x1.30c257add8dc2p-56,
            0x1.67164e15880dbp-58, 0x1.cb692d3651a8dp-58, 0x1.deb01e24472dep-56, 0x1.bdbac5d0228dap-61,
            0x1.55f5b44c0df7fp-56, 0x1.eb4f4ade67242p-57, -0x1.eb4aeb71dce6p-56, -0x1.05722aa3e6ceap-56,
            -0x1.205f60f4fb3a9p-62, 0x1.2aa1e447883d3p-56, 0x1.eda0414ae7af8p-56, 0x1.a7b9a30da0b3ap-56,
            -0x1.f7e305eaf5a2p-56, 0x1.dfc20b32aeeb8p-58, -0x1.dae890e61064bp-57, 0x1.5a154e9bd1c94p-56,
            -0x1.b843fd41b5821p-57, 0x1.0249d0381591bp-56, 0x1.8e2593c3a036fp-59, 0x1.d2fd8ca1453afp-56,
            0x1.5a541e6e2e36cp-56, 0x1.eeee6aa0cadf1p-56, -0x1.e6aa35e8c481ep-59, -0x1.23ffa5a12c9b5p-56,
            0x1.da7e21101b5adp-57, -0x1.b53ed4fe4c507p-57, 0x1.a15d801e7d762p-57, -0x1.233e2172b6715p-56,
            -0x1.529616f79ff4ep-57, 0x1.7e4369c72b404p-59, -0x1.829024aa2ed78p-56, -0x1.1522847de5d12p-56,
            -0x1.94404052f3458p-58, -0x1.5a21d4fe8d42ap-56, 0x1.440ad727f641bp-57, 0x1.3d8174030ad14p-57,
            -0x1.a38ef996b0c96p-58, 0x1.9475699c6a38ep-56, -0x1.05a22e785ea23p-58, 0x1.be438c258188p-58,
            -0x1.8ae998c1dd664p-58, -0x1.59b44f8126332p-58, -0x1.217062a6fe69fp-58, -0x1.ec7721b26dd59p-57,
            0x1.6d10f1efcca1bp-57, -0x1.4cb1c548a6ce6p-59, -0x1.f7fb96815e081p-57, 0x1.4b38932bc0bedp-60,
            0x1.6ba2099514bdbp-57, -0x1.41a8c6e6c4ee7p-57, -0x1.49abc89ceca67p-57, 0x1.c9302152b2212p-58,
            -0x1.afe88865b42bdp-57, 0x1.35f155b885f1fp-58, 0x1.6ab87331d9cbfp-58, -0x1.a9a875993ea8ap-59,
            0x1.67e06f618b545p-57, 0x1.ce009e6f018ffp-57, 0x1.e779df58e47ddp-59, 0x1.64c2df743bd5ap-57,
            -0x1.d8757a8fb3347p-57, -0x1.d2acb445001d8p-58, 0x1.4f380cbe9dbe8p-57, 0x1.6156fc3047cf8p-59,
            0x1.5bf457b7d1812p-58, -0x1.10d3e606a318fp-58, 0x1.8dc7c5f3e101cp-57, -0x1.855f3b0e0e1cdp-59,
            0x1.fafd9b2dc9d46p-62, 0x1.0185383697ee2p-59, -0x1.cab0de1592fbp-58, -0x1.b8189ade2b075p-57,
            0x1.e65da72814af4p-58, 0x1.42346e5e4fa23p-58, -0x1.0ff9b512dbc1dp-59, -0x1.fcf56e7951abbp-58,
            -0x1.717c37bdf2e08p-57, -0x1.8e9bd2fbbdd69p-57, 0x1.e83d7b49da757p-57, 0x1.98a8b82ff1eb3p-57,
            -0x1.18413163ccbcfp-59, -0x1.42160f40d56bbp-60, 0x1.2b68636453e34p-57, -0x1.4e87b0e13f0a5p-59,
            -0x1.a3015e71fdb2bp-57, -0x1.e3736a838a6b8p-63, 0x1.1ee90992dcbabp-58, -0x1.da26b09af7476p-57,
            0x1.f8835d0d8979fp-57, -0x1.68a3f37b5ce5ap-58, 0x1.575f2fc45ac69p-58, -0x1.451cff9dfe3fbp-59,
            -0x1.1c0b6eb19fd48p-60, -0x1.9db09cb07729cp-58, -0x1.7990e21019877p-58, -0x1.0efb45962e028p-58,
            0x1.b19f3d5cb5706p-59, -0x1.32fe71255a574p-60, -0x1.987464c3722b2p-58, -0x1.f2ae991c88432p-62,
            0x1.e9dd426e0f27bp-58, 0x1.cacff4ed42aa4p-58, -0x1.fc9b2957205c6p-58, 0x1.82e641279cfb5p-61,
            0x1.9be67f7aa7546p-61, 0x1.0665c3071db3dp-62, 0x1.0f063e63e7076p-58, 0x1.4b70f10e93174p-59,
            -0x1.ae60449356c12p-58, 0x1.5fb58f1376e6ep-63, -0x1.e4f357d0bf567p-59, -0x1.996258b3d8a77p-60,
            -0x1.b90461005f525p-59, -0x1.a95502af7fe71p-58, 0x1.2d70e0535f54fp-60, 0x1.a1228837a052dp-59,
            0x1.c9fb41d22e91p-58, 0x1.fc9a20edb0203p-58, 0x1.e90703082910cp-59, 0x1.0fed164d13b5bp-58,
            -0x1.40b9e3aea6c39p-59, 0x1.c6eab08695901p-59, 0x1.a3a33b3446795p-59, 0x1.4a8a6ef59ba39p-62,
            0x1.45b3d79755aa4p-59, 0x1.94985538de795p-63, 0x1.8c077e47149d6p-60, 0x1.4fddb2a56c208p-64,
            0x1.ab7945fa2720bp-59, -0x1.e3b80a8c6332fp-59, -0x1.affdb6d68f1fbp-62, -0x1.fc23106232514p-59,
            -0x1.27edc6f1c907ep-61, -0x1.15d312cc97c03p-59, 0x1.839390333b61ep-59, 0x1.62b162f225e0bp-60,
            -0x1.c938df3eb88aap-60, -0x1.95e5c8f8f355ep-61, 0x1.791d41005f9a7p-60, 0x1.0693080ae9e8ap-64,
            -0x1.690fe9477840cp-60, 0x1.b169406d66a7bp-60, 0x1.e767bb50221ffp-60, 0x1.804ad31b5f952p-62,
            0x1.147b45033e1b4p-61, 0x1.35b4d1c8470b4p-66, -0x1.a2a0e2a1967efp-61, -0x1.47189d3ff66bfp-61,
            -0x1.bb69dea7ecc2cp-62, 0x1.e20f8fffe770ap-62, 0x1.6958f3f3b017bp-65, -0x1.9abe6bf0fa436p-65
    };

    static {
        for (int j = 0; j < CELLS; j++) {
            INV[j] = 1 / midpoint(j);
        }
    }

    private LogTable() {
    }

    /** The midpoint of cell j of [1/2, 1): exact in binary. */
    static double midpoint(int j) {
        return 0.5 + (j + 0.5) / (2.0 * CELLS);
    }
}
