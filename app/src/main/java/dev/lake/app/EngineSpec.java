package dev.lake.app;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.lake.aws.AwsConfig;
import dev.lake.engine.EngineConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What an engine process is built from: its own engine settings (one memory pool), the deployment's
 * registry, AWS settings and table-format settings, as the one JSON line the supervisor writes to
 * the process's stdin (never argv or a file: format settings may hold secrets). Format settings
 * travel as their record's class name and fields; only records of lake's own packages are accepted.
 */
record EngineSpec(
    EngineConfig engine, RegistrySource registry, Optional<AwsConfig> aws, List<Object> formats) {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .registerModule(new Jdk8Module())
          .registerModule(new JavaTimeModule())
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  EngineSpec {
    requireNonNull(engine, "engine is null");
    requireNonNull(registry, "registry is null");
    requireNonNull(aws, "aws is null");
    formats = List.copyOf(requireNonNull(formats, "formats is null"));
  }

  String toLine() {
    ObjectNode node = MAPPER.createObjectNode();
    node.set("engine", MAPPER.valueToTree(engine));
    ObjectNode registryNode = node.putObject("registry");
    registry.file().ifPresent(f -> registryNode.put("file", f.toString()));
    registry.table().ifPresent(t -> registryNode.put("table", t));
    registryNode.put("freshnessMs", registry.freshness().toMillis());
    aws.ifPresent(a -> node.set("aws", MAPPER.valueToTree(a)));
    var formatNodes = node.putArray("formats");
    for (Object setting : formats) {
      if (!setting.getClass().isRecord()) {
        throw new IllegalArgumentException(
            "format setting " + setting.getClass().getName() + " is not a record");
      }
      ObjectNode f = formatNodes.addObject();
      f.put("type", setting.getClass().getName());
      f.set("value", MAPPER.valueToTree(setting));
    }
    try {
      return MAPPER.writeValueAsString(node);
    } catch (IOException e) {
      throw new IllegalStateException("engine settings cannot be written", e);
    }
  }

  static EngineSpec fromLine(String line) throws IOException {
    JsonNode node = MAPPER.readTree(line);
    EngineConfig engine = MAPPER.treeToValue(node.get("engine"), EngineConfig.class);
    JsonNode r = node.path("registry");
    RegistrySource registry =
        new RegistrySource(
            r.hasNonNull("file") ? Optional.of(Path.of(r.get("file").asText())) : Optional.empty(),
            r.hasNonNull("table") ? Optional.of(r.get("table").asText()) : Optional.empty(),
            Duration.ofMillis(r.path("freshnessMs").asLong()));
    Optional<AwsConfig> aws =
        node.hasNonNull("aws")
            ? Optional.of(MAPPER.treeToValue(node.get("aws"), AwsConfig.class))
            : Optional.empty();
    List<Object> formats = new ArrayList<>();
    for (JsonNode f : node.path("formats")) {
      String type = f.path("type").asText();
      Class<?> c;
      try {
        c = Class.forName(type);
      } catch (ClassNotFoundException e) {
        throw new IOException("unknown format setting " + type, e);
      }
      if (!c.isRecord() || !type.startsWith("dev.lake.")) {
        throw new IOException("format setting " + type + " is not one of lake's records");
      }
      formats.add(MAPPER.treeToValue(f.get("value"), c));
    }
    return new EngineSpec(engine, registry, aws, formats);
  }
}
