package dev.lake.client.cli;

import org.jline.terminal.spi.SystemStream;
import org.jline.terminal.spi.TerminalProvider;

/**
 * Whether standard streams are terminals (Java 17's {@code System.console()} cannot tell apart).
 */
final class Terminals {
  private Terminals() {}

  static boolean stdin() {
    return isTerminal(SystemStream.Input);
  }

  static boolean stdout() {
    return isTerminal(SystemStream.Output);
  }

  static boolean stderr() {
    return isTerminal(SystemStream.Error);
  }

  /** Asks JLine's native provider, then its exec provider; false when neither can tell. */
  private static boolean isTerminal(SystemStream stream) {
    for (String provider : new String[] {"jni", "exec"}) {
      try {
        return TerminalProvider.load(provider).isSystemStream(stream);
      } catch (Exception | LinkageError e) {
        // try the next provider
      }
    }
    return false;
  }
}
