package dev.lake.core;

import java.util.List;

/**
 * The settings a {@link TableFormat} takes from the command line (and from the {@code LAKE_*}
 * variables, one definition each: {@code --delta-foo} ⇔ {@code LAKE_DELTA_FOO}). An implementation
 * is a picocli mixin: a class whose fields carry picocli's {@code @Option} annotations (core itself
 * names no command-line library). Every lake process command ({@code serve}, {@code local}, {@code
 * worker}) adds a fresh instance of every installed format's options to itself when its command
 * line is built, so a format's flags need no edit outside its module; after parsing, {@link
 * #settings} becomes part of the {@link FormatContext} every format is opened with.
 */
public interface FormatOptions {
  /**
   * The validated settings records the parsed options describe, each a type of this format's own
   * that {@link FormatContext#findSettings} finds (none when the format is not configured). A bad
   * value or a missing companion setting throws {@link IllegalArgumentException} naming the flag or
   * setting and the bad value; the command prints that one line and exits with 2.
   */
  List<Object> settings();
}
