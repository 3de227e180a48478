package dev.spacebench.system;

import org.apache.catalina.Container;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * Puts {@link ApiErrorReportValve} on Tomcat's host in place of the plain {@link ErrorReportValve}
 * Spring Boot adds (its {@code TomcatWebServerFactoryCustomizer} runs first: this one has the
 * lowest precedence), so what Tomcat refuses under {@code /api/} answers problem+json.
 */
@Component
class TomcatErrors implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void customize(ConfigurableTomcatWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            Container host = context.getParent();
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve.getClass() == ErrorReportValve.class) {
                    host.getPipeline().removeValve(valve);
                }
            }
            host.getPipeline().addValve(new ApiErrorReportValve());
            // The host adds a valve of this class when it starts unless it already has one.
            if (host instanceof StandardHost standard) {
                standard.setErrorReportValveClass(ApiErrorReportValve.class.getName());
            }
        });
    }
}
