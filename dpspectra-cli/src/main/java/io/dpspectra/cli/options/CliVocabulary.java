package io.dpspectra.cli.options;

import io.dpspectra.release.Setting;
import io.dpspectra.release.Vocabulary;
import java.util.EnumMap;
import java.util.Map;

/**
 * The command line's words for the release layer's settings: {@code --tau}, {@code --tau 0.01}; a setting the
 * user typed in this run is echoed as typed ({@link #typedAs}).
 */
public final class CliVocabulary implements Vocabulary {
    /** The words of the command line, echoing nothing typed. */
    public static final CliVocabulary DEFAULT = new CliVocabulary();

    private final Map<Setting, String> typed = new EnumMap<>(Setting.class);

    /** Echo {@code text} (as the user typed it, without the option's name) wherever {@code setting} is echoed. */
    public CliVocabulary typedAs(Setting setting, String text) {
        CliVocabulary v = new CliVocabulary();
        v.typed.putAll(typed);
        if (text != null) {
            v.typed.put(setting, text);
        }
        return v;
    }

    @Override
    public String name(Setting setting) {
        return "--" + setting.key();
    }

    @Override
    public String typed(Setting setting, String value) {
        return name(setting) + " " + value;
    }

    @Override
    public String given(Setting setting, String canonical) {
        String text = typed.get(setting);
        return typed(setting, text != null ? text : canonical);
    }

    @Override
    public String advisor() {
        return "'dpspectra advise'";
    }
}
