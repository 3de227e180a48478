package dev.spacebench.system;

import dev.spacebench.environment.BuildFacts;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The REST API's name, version and description, as Swagger UI and /v3/api-docs show them, and its
 * credential: the API token as an HTTP bearer scheme, required on the operations
 * {@link WebSecurity} requires it on (every state change; every call when the app is bound off
 * loopback), so that Swagger UI offers "Authorize" and sends the token with them.
 */
@Configuration
@EnableConfigurationProperties(ServedAt.class)
public class ApiDocs {

    /** The security scheme's name in {@code components.securitySchemes}. */
    public static final String API_TOKEN = "api-token";
    private static final Set<PathItem.HttpMethod> READS = Set.of(PathItem.HttpMethod.GET, PathItem.HttpMethod.HEAD,
            PathItem.HttpMethod.OPTIONS);

    @Bean
    OpenAPI spacebenchApi(BuildFacts build) {
        return new OpenAPI().info(new Info().title("Spacebench REST API").version(build.build().version())
                .description("Queue runs that measure command round trips and file transfers into a Space, read their "
                        + "figures and raw samples, compare them with baselines, and publish benchmarks. Every state "
                        + "change needs the API token (Authorization: Bearer …; in Swagger UI: Authorize); errors are "
                        + "RFC 9457 problem+json naming the field."))
                .components(new Components().addSecuritySchemes(API_TOKEN, new SecurityScheme().type(SecurityScheme.Type.HTTP)
                        .scheme("bearer").description("The API token: the file " + ApiToken.FILE_NAME + " in the app's data "
                                + "directory (./data by default), or what " + ApiToken.VARIABLE + " was set to.")));
    }

    /** Marks each operation that needs the token with the {@value #API_TOKEN} scheme. */
    @Bean
    OpenApiCustomizer operationsThatNeedTheToken(ServedAt served) {
        boolean openReads = WebSecurity.loopbackOnly(served.address());
        return api -> {
            if (api.getPaths() == null) {
                return;
            }
            api.getPaths().values().forEach(path -> path.readOperationsMap().forEach((method, operation) -> {
                boolean marked = operation.getSecurity() != null && operation.getSecurity().stream().anyMatch(r -> r.containsKey(API_TOKEN));
                if ((!openReads || !READS.contains(method)) && !marked) {
                    operation.addSecurityItem(new SecurityRequirement().addList(API_TOKEN));
                }
            }));
        };
    }
}
