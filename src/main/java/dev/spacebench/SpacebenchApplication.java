package dev.spacebench;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The web app's Spring configuration: dashboard, REST API and the worker. Started by {@link Main}
 * when no subcommand is given; the command line has its own configuration ({@code cli.LocalConfiguration}).
 */
@SpringBootApplication
@EnableScheduling
@ConfigurationPropertiesScan
public class SpacebenchApplication {
}
