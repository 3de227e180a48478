package dev.spacebench.plan;

/**
 * One thing wrong with a plan, as {@link PlanValidator} finds it: plain data, which the layers
 * above turn into their own errors (a REST problem's field, a form input's message).
 *
 * @param field the JSON path of the field, e.g. {@code plan.files.sizes[2].bytes}
 * @param message what is wrong and what is allowed, e.g. "must be from 1 to 1000000, was 0"
 */
public record PlanProblem(String field, String message) {
}
