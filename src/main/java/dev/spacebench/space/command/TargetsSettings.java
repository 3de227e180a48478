package dev.spacebench.space.command;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code spacebench.targets-file}.
 *
 * @param targetsFile a YAML file of operator-defined command targets ({@link TargetsFile}), read
 *     once at start; a bad file stops the start with the file, entry and field named. Blank (the
 *     default): no targets, and the {@code command} kind is unavailable
 */
@ConfigurationProperties("spacebench")
public record TargetsSettings(@DefaultValue("") String targetsFile) {

    public TargetsSettings {
        targetsFile = targetsFile == null ? "" : targetsFile.strip();
    }
}
