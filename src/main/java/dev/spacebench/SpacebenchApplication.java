package dev.spacebench;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class SpacebenchApplication {
    public static void main(String[] args) {
        SpringApplication.run(SpacebenchApplication.class, args);
    }
}
