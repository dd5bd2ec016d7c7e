package io.dpspectra.release;

/**
 * How a front end names the settings a user gives, so that the release layer's messages name what the user
 * typed: {@link #JAVA} names the builder calls ({@code tau(0.01)}), the command line its options
 * ({@code --tau 0.01}). The release layer decides when a setting is wrong; the vocabulary supplies the
 * words.
 */
public interface Vocabulary {
    /** The words of the Java API: a setting is named by its builder method, e.g. {@code batchSize(8)}. */
    Vocabulary JAVA = new Vocabulary() {
        @Override
        public String name(Setting setting) {
            return setting.javaName();
        }

        @Override
        public String typed(Setting setting, String value) {
            return setting.javaName() + "(" + value + ")";
        }
    };

    /**
     * The setting as the user names it, e.g. {@code --tau} or {@code tau}.
     *
     * @param setting the setting
     * @return its name in the user's words
     */
    String name(Setting setting);

    /**
     * The setting given {@code value}, as the user would write it, e.g. {@code --tau 0.01} or {@code tau(0.01)}.
     *
     * @param setting the setting
     * @param value   its value, as text
     * @return the setting with its value in the user's words
     */
    String typed(Setting setting, String value);

    /**
     * The setting as the user gave it in this run, for echoing it in a message; {@code canonical} is its
     * value in the release layer's own form. By default, {@link #typed typed(setting, canonical)}; a front end
     * that keeps the text the user typed may return that instead.
     *
     * @param setting   the setting
     * @param canonical its value in the release layer's form
     * @return the setting as given, in the user's words
     */
    default String given(Setting setting, String canonical) {
        return typed(setting, canonical);
    }

    /**
     * Where the user asks the advisor what would work, for messages ending "see ...".
     *
     * @return e.g. {@code 'dpspectra advise'}; by default the advisor's Java entry point
     */
    default String advisor() {
        return "ReleaseAdvisor.advise";
    }
}
