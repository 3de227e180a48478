package dev.spacebench.system;

import dev.spacebench.environment.BuildFacts;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The REST API's name, version and description, as Swagger UI and /v3/api-docs show them. */
@Configuration
public class ApiDocs {

    @Bean
    OpenAPI spacebenchApi(BuildFacts build) {
        return new OpenAPI().info(new Info().title("Spacebench REST API").version(build.build().version())
                .description("Queue runs that measure command round trips and file transfers into a Space, read their "
                        + "figures and raw samples, compare them with baselines, and publish benchmarks. Every state "
                        + "change needs the API token (Authorization: Bearer …); errors are RFC 9457 problem+json naming "
                        + "the field."));
    }
}
