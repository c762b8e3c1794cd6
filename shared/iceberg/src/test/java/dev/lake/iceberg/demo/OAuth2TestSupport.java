package dev.lake.iceberg.demo;

import dev.lake.core.LakeException;
import java.util.function.Supplier;

final class OAuth2TestSupport {
  private OAuth2TestSupport() {}

  static LakeException catchLake(Supplier<?> s) {
    try {
      Object o = s.get();
      if (o instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }
    } catch (LakeException e) {
      return e;
    }
    throw new AssertionError("expected a LakeException");
  }
}
