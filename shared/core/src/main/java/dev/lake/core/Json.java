package dev.lake.core;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

/**
 * The one Jackson mapper configuration lake uses for its own files and envelopes. It writes compact
 * JSON (envelopes, job records, manifests are read by machines and sized per byte); files meant for
 * people to read and edit are written through {@link #pretty()}.
 */
public final class Json {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private static final ObjectWriter PRETTY = MAPPER.writerWithDefaultPrettyPrinter();

  private Json() {}

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** Indented output for human-facing files (registry, key ring, principals). */
  public static ObjectWriter pretty() {
    return PRETTY;
  }
}
