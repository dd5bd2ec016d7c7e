package io.dpspectra.release;

import io.dpspectra.data.DataBounds;
import io.dpspectra.data.SchemaFile;
import java.util.List;
import java.util.Objects;

/**
 * The public preprocessing between the rows as read and the estimator, as a release records it and as a
 * transform of new rows replays it: the schema (or none), the centring, the released private mean when
 * there is one, and the row-norm bound with its origin and policy. Everything in it is public: declared by
 * the user, or released by a private mechanism whose cost is part of the release's guarantee.
 *
 * @param schema      the schema and its file format, or null for numeric rows as they are
 * @param centring    how rows were centred
 * @param mean        the privately released mean subtracted after the schema's map, or null (not copied)
 * @param inputBound  the L2 row-norm bound of the rows as read (before a private centring)
 * @param bound       the L2 row-norm bound the estimator saw (after centring; inputBound without one)
 * @param boundOrigin how the bound was obtained, in words
 * @param policy      what happened to a row above inputBound: clipped or refused
 * @param features    the names of the d features the estimator saw
 */
public record Preprocessing(SchemaFile schema, Centring centring, double[] mean, double inputBound, double bound,
                            String boundOrigin, DataBounds.Policy policy, List<String> features) {
    /**
     * Checks the fields and copies the names.
     *
     * @param schema      the schema, or null
     * @param centring    the centring
     * @param mean        the mean, or null
     * @param inputBound  the first bound
     * @param bound       the final bound
     * @param boundOrigin the bound's origin in words
     * @param policy      the first bound's policy
     * @param features    the feature names
     */
    public Preprocessing {
        Objects.requireNonNull(centring, "centring");
        Objects.requireNonNull(boundOrigin, "boundOrigin");
        Objects.requireNonNull(policy, "policy");
        features = List.copyOf(features);
        if (centring.isPrivate() != (mean != null)) {
            throw new IllegalArgumentException("a private centring has a released mean, and only it");
        }
    }

    /**
     * The bounding chain that replays this preprocessing on rows read through the same schema.
     *
     * @param origin how the bound is declared to the estimator (user-given when replayed on new rows)
     * @return the chain
     */
    public Bounding bounding(DataBounds.Origin origin) {
        return new Bounding(inputBound, policy, mean, bound, origin);
    }
}
