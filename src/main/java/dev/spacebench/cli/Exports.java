package dev.spacebench.cli;

/** The files the bench command writes into its output directory, named as the REST exports are. */
final class Exports {

    static final String RESULT_JSON = "result.json";
    static final String SAMPLES_CSV = "samples.csv";
    static final String PAGE_MD = "page.md";
    /** Only with --baseline: the regression check's answer. */
    static final String CHECK_JSON = "check.json";

    private Exports() {}
}
