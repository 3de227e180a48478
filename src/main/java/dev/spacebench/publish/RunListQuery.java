package dev.spacebench.publish;

import org.springframework.web.util.UriComponentsBuilder;

/**
 * The runs list's filter as the person typed it (blank: any), kept as text so a rejected value
 * shows again in its input beside its error.
 *
 * @param from first UTC day, {@code yyyy-MM-dd}
 * @param to last UTC day, {@code yyyy-MM-dd}
 * @param testbed a testbed's name
 */
public record RunListQuery(String kind, String status, String from, String to, String testbed) {

    /** True when any part is given. */
    public boolean filtered() {
        return given(kind) || given(status) || given(from) || given(to) || given(testbed);
    }

    /** The list's URL for another page with this same filter, e.g. {@code /runs?page=1&size=50&kind=process}. */
    public String link(int page, int size) {
        UriComponentsBuilder uri = UriComponentsBuilder.fromPath("/runs").queryParam("page", page).queryParam("size", size);
        add(uri, "kind", kind);
        add(uri, "status", status);
        add(uri, "from", from);
        add(uri, "to", to);
        add(uri, "testbed", testbed);
        return uri.encode().build().toUriString();
    }

    private static boolean given(String value) {
        return value != null && !value.isBlank();
    }

    private static void add(UriComponentsBuilder uri, String name, String value) {
        if (given(value)) {
            uri.queryParam(name, value.strip());
        }
    }
}
