package dev.lake.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ImageLayoutTest {
  private final ImageLayout x86 = new ImageLayout("x86_64");
  private final ImageLayout arm = new ImageLayout("aarch64");

  @Test
  void keepNative_keepsLinuxLibrariesOfTheTargetArchitectureOnly() {
    // the bundles of Lance, DuckDB, Arrow, zstd-jni and snappy-java, as they name them
    assertThat(x86.keepNative("nativelib/linux-x86-64/liblance_jni.so")).isTrue();
    assertThat(x86.keepNative("nativelib/linux-aarch64/liblance_jni.so")).isFalse();
    assertThat(x86.keepNative("nativelib/darwin-aarch64/liblance_jni.dylib")).isFalse();
    assertThat(x86.keepNative("libduckdb_java.so_linux_amd64")).isTrue();
    assertThat(x86.keepNative("libduckdb_java.so_linux_arm64")).isFalse();
    assertThat(x86.keepNative("libduckdb_java.so_osx_universal")).isFalse();
    assertThat(x86.keepNative("libduckdb_java.so_windows_amd64")).isFalse();
    assertThat(x86.keepNative("arrow_dataset_jni/x86_64/libarrow_dataset_jni.so")).isTrue();
    assertThat(x86.keepNative("arrow_dataset_jni/aarch_64/libarrow_dataset_jni.so")).isFalse();
    assertThat(x86.keepNative("linux/amd64/libzstd-jni-1.5.7-3.so")).isTrue();
    assertThat(x86.keepNative("linux/i386/libzstd-jni-1.5.7-3.so")).isFalse();
    assertThat(x86.keepNative("freebsd/amd64/libzstd-jni-1.5.7-3.so")).isFalse();
    assertThat(x86.keepNative("org/xerial/snappy/native/Linux/x86_64/libsnappyjava.so")).isTrue();
    assertThat(x86.keepNative("org/xerial/snappy/native/Linux/x86/libsnappyjava.so")).isFalse();
    assertThat(x86.keepNative("org/xerial/snappy/native/Linux/android-arm/libsnappyjava.so"))
        .isFalse();
    assertThat(arm.keepNative("nativelib/linux-aarch64/liblance_jni.so")).isTrue();
    assertThat(arm.keepNative("nativelib/linux-x86-64/liblance_jni.so")).isFalse();
    assertThat(arm.keepNative("libduckdb_java.so_linux_arm64")).isTrue();
  }

  @Test
  void excluded_dropsTestBenchAndForeignPlatformJars() {
    assertThat(x86.excluded("lake-core-0.1.0-SNAPSHOT-tests.jar")).isTrue();
    assertThat(x86.excluded("lake-bench-0.1.0-SNAPSHOT.jar")).isTrue();
    assertThat(x86.excluded("netty-tcnative-boringssl-static-2.0.70.Final-osx-aarch_64.jar"))
        .isTrue();
    assertThat(x86.excluded("netty-tcnative-boringssl-static-2.0.70.Final-linux-aarch_64.jar"))
        .isTrue();
    assertThat(x86.excluded("netty-tcnative-boringssl-static-2.0.70.Final-windows-x86_64.jar"))
        .isTrue();
    assertThat(x86.excluded("netty-tcnative-boringssl-static-2.0.70.Final-linux-x86_64.jar"))
        .isFalse();
    assertThat(x86.excluded("lake-engine-0.1.0-SNAPSHOT.jar")).isFalse();
    assertThat(x86.excluded("duckdb_jdbc-1.4.4.0.jar")).isFalse();
  }

  @Test
  void constructor_rejectsAnUnknownArchitecture() {
    assertThatThrownBy(() -> new ImageLayout("sparc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("arch must be x86_64 or aarch64: sparc");
  }
}
