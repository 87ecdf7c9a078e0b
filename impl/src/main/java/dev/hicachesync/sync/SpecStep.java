package dev.hicachesync.sync;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class (or a method) that is one step of the protocol as {@code spec/HiCacheSync.tla} names it: the
 * spec's action is the thread's {@link Actor#prefix()} followed by the class's name (a method's, capitalised),
 * and both are named after the SGLang function they model ({@code writing_check}: class {@code WritingCheck},
 * action {@code SchedWritingCheck}).
 *
 * <p>Why: spec and code share one vocabulary, so that a counterexample's actions read as the code's steps.
 * The modelcheck module's {@code VocabularyTest} reads the Java sources and the spec and fails on a step, sync
 * point or invariant name found on one side only; {@code docs/reference/vocabulary.md} lists them all.
 */
@Documented
@Retention(RetentionPolicy.SOURCE)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface SpecStep {

  /** The thread that takes the step. */
  Actor value();

  /** The threads of a rank that take steps, and the prefix of their steps' action names in the spec. */
  enum Actor {
    /** The scheduler thread: {@code Sched...}. */
    SCHEDULER("Sched"),
    /** The prefetch thread ({@code prefetch_thread_func}): {@code Pf...}. */
    PREFETCH_THREAD("Pf"),
    /** The thread of an asynchronous collective's handle (version {@code pipelined}'s S123): {@code Async...}. */
    ASYNC_HANDLE("Async");

    private final String prefix;

    Actor(String prefix) {
      this.prefix = prefix;
    }

    /** The prefix of the spec's action names of this thread's steps. */
    public String prefix() {
      return prefix;
    }
  }
}
