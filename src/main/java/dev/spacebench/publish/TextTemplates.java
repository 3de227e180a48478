package dev.spacebench.publish;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.thymeleaf.TemplateEngine;
import org.thymeleaf.context.Context;
import org.thymeleaf.spring6.SpringTemplateEngine;
import org.thymeleaf.templatemode.TemplateMode;
import org.thymeleaf.templateresolver.ClassLoaderTemplateResolver;

/**
 * Renders the Thymeleaf TEXT-mode templates under {@code templates/text/} (the page's prose and
 * page.md). The prose is written once there; the HTML page and page.md both show what these
 * render, so the two never disagree. Thread-safe; templates are parsed once and cached.
 */
public final class TextTemplates {

    private static final TemplateEngine ENGINE = engine();

    private TextTemplates() {}

    private static TemplateEngine engine() {
        ClassLoaderTemplateResolver resolver = new ClassLoaderTemplateResolver(TextTemplates.class.getClassLoader());
        resolver.setPrefix("templates/text/");
        resolver.setSuffix(".txt");
        resolver.setTemplateMode(TemplateMode.TEXT);
        resolver.setCharacterEncoding("UTF-8");
        resolver.setCacheable(true);
        // SpEL, as in the HTML templates (Spring's engine needs no application context for it).
        SpringTemplateEngine engine = new SpringTemplateEngine();
        engine.setTemplateResolver(resolver);
        return engine;
    }

    /**
     * @param template e.g. {@code "page"} for {@code templates/text/page.txt}
     * @param variables the template's variables, by name
     * @return the rendered text, verbatim
     */
    public static String render(String template, Map<String, ?> variables) {
        Context context = new Context();
        variables.forEach(context::setVariable);
        return ENGINE.process(template, context);
    }

    /**
     * Renders a prose template as paragraphs: blank lines separate them, and the whitespace
     * inside one (line breaks, indentation, what a skipped condition leaves) reads as one space.
     *
     * @return the non-empty paragraphs, in order
     */
    public static List<String> paragraphs(String template, Map<String, ?> variables) {
        return blocks(template, variables).stream().map(block -> block.replaceAll("\\s+", " ")).toList();
    }

    /**
     * Renders a template as blocks separated by blank lines, each stripped, line breaks kept.
     *
     * @return the non-empty blocks, in order
     */
    public static List<String> blocks(String template, Map<String, ?> variables) {
        List<String> blocks = new ArrayList<>();
        for (String block : render(template, variables).split("\\n[ \\t]*\\n")) {
            String text = block.strip();
            if (!text.isEmpty()) {
                blocks.add(text);
            }
        }
        return blocks;
    }
}
