package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.QueryExecution;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStatus;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.ticket.SealedEnvelope;
import dev.lake.durable.DurableQueries;
import dev.lake.durable.DurableTierConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.IpcOption;

/**
 * The durable tier at the Flight edge: translates PollFlightInfo, CancelFlightInfo, part DoGets and
 * the GetFlightInfo wait budget into {@link DurableQueries} calls. Submissions go through exactly
 * the GetFlightInfo path ({@link StatementHandler#plan}: gates, admission, authorization, snapshot
 * resolution, planning).
 *
 * <p>Poll descriptors and part tickets are raw sealed lake envelopes (they start with the ASCII
 * magic {@code LK}); Flight SQL commands and statement tickets are protobuf {@code Any} messages,
 * whose first byte is {@code 0x0A} and never {@code 'L'} ({@code 0x4C} would be field 9 with the
 * END_GROUP wire type, invalid at the start of a message). {@link #isSealed} is that test; a sealed
 * envelope of the wrong kind fails closed in the ticket sealer.
 */
@SuppressWarnings("try") // the gate permit is held for the scope, not referenced
final class DurableHandler {
  private final DurableQueries durable;
  private final StatementHandler statements;
  private final AdmissionGates partGates;
  private final ResultStreamer streamer;
  private final BufferAllocator allocator;
  private final DurableTierConfig config;

  DurableHandler(
      DurableQueries durable,
      StatementHandler statements,
      AdmissionGates partGates,
      ResultStreamer streamer,
      BufferAllocator allocator,
      DurableTierConfig config) {
    this.durable = requireNonNull(durable, "durable is null");
    this.statements = requireNonNull(statements, "statements is null");
    this.partGates = requireNonNull(partGates, "partGates is null");
    this.streamer = requireNonNull(streamer, "streamer is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.config = requireNonNull(config, "config is null");
  }

  /** Whether ticket or descriptor bytes are a raw sealed lake envelope (not a protobuf Any). */
  static boolean isSealed(byte[] bytes) {
    return SealedEnvelope.looksSealed(bytes);
  }

  /**
   * PollFlightInfo: a statement or prepared-statement command submits (or finds) its job; a poll
   * descriptor returned earlier long-polls the job for at most {@link DurableTierConfig#pollWait}.
   */
  PollInfo poll(
      Principal principal,
      FlightDescriptor descriptor,
      Optional<String> submissionId,
      ResultFormat format,
      CallNotes notes) {
    if (!descriptor.isCommand()) {
      throw unsupportedCommand();
    }
    byte[] command = descriptor.getCommand();
    JobStatus status =
        isSealed(command)
            ? durable.await(principal, command, config.pollWait())
            : submit(principal, command, submissionId, format, notes);
    notes.job(status.jobId());
    FlightDescriptor next = FlightDescriptor.command(status.descriptor());
    return new PollInfo(
        info(status, next), status.done() ? null : next, status.progress(), status.expiresAt());
  }

  /**
   * GetFlightInfo for clients that never poll ({@code x-lake-durable: true}): submits, waits up to
   * {@link DurableTierConfig#waitBudget}, then answers with the part endpoints, or UNAVAILABLE
   * naming the job; running the same statement again lands on the same job.
   */
  FlightInfo flightInfo(
      Principal principal,
      String sql,
      List<Object> parameters,
      Optional<String> submissionId,
      ResultFormat format,
      CallNotes notes) {
    JobStatus submitted = submit(principal, sql, parameters, submissionId, format, notes);
    notes.job(submitted.jobId());
    JobStatus status =
        submitted.done()
            ? submitted
            : durable.await(principal, submitted.descriptor(), config.waitBudget());
    if (!status.done()) {
      throw new LakeException(
          ErrorCode.OVERLOADED,
          "Query is still running as job "
              + status.jobId()
              + "; run the same statement again to pick up its result");
    }
    return info(status, FlightDescriptor.command(status.descriptor()));
  }

  /**
   * CancelFlightInfo of a FlightInfo this tier returned (its descriptor is a poll descriptor);
   * empty for any other FlightInfo, which the interactive path handles.
   */
  Optional<CancelStatus> cancel(Principal principal, FlightInfo info) {
    FlightDescriptor descriptor = info.getDescriptor();
    if (descriptor == null || !descriptor.isCommand() || !isSealed(descriptor.getCommand())) {
      return Optional.empty();
    }
    return Optional.of(
        switch (durable.cancel(principal, descriptor.getCommand())) {
          case CANCELLED -> CancelStatus.CANCELLED;
          case CANCELLING -> CancelStatus.CANCELLING;
          case NOT_CANCELLABLE -> CancelStatus.NOT_CANCELLABLE;
          case NOT_FOUND ->
              throw new LakeException(
                  ErrorCode.NOT_FOUND, "Unknown or expired job; submit the query again");
        });
  }

  /**
   * DoGet of a RESULT_PART ticket: streams exactly that part from a producer thread and returns. It
   * takes a slot of the part-download gates ({@code partGates}, per tenant then global), not a
   * query slot: a part download runs no engine work, and on the query gates a parallel download (4
   * streams: all of a tenant's default query slots) and the tenant's queries waited on each other.
   * The slot stays charged until the part's reader (and with it the object-store stream) is closed
   * and gRPC released the last batch, so the gates still bound the memory slow readers can pin.
   */
  void stream(Principal principal, byte[] ticket, ServerStreamListener listener, CallNotes notes) {
    TenantBudgets budgets = statements.budgets();
    budgets.checkBeforeStart(principal.tenant());
    AdmissionGates.Permit permit = partGates.enter(principal.tenant());
    PartExecution execution;
    try {
      execution = new PartExecution(durable.openPart(principal, ticket, allocator, notes::job));
    } catch (RuntimeException e) {
      permit.close();
      throw e;
    }
    // the streamer owns the part and the permit from here and closes both when the stream ends
    streamer.start(
        StatementHandler.digest(ticket),
        execution,
        ColumnMetadata.stream(
            BudgetedListener.of(listener, budgets, principal.tenant(), false),
            columns -> List.of()),
        List.of(permit),
        notes);
  }

  private JobStatus submit(
      Principal principal,
      byte[] command,
      Optional<String> submissionId,
      ResultFormat format,
      CallNotes notes) {
    Any any;
    try {
      any = Any.parseFrom(command);
    } catch (InvalidProtocolBufferException e) {
      throw unsupportedCommand();
    }
    try {
      if (any.is(CommandStatementQuery.class)) {
        CommandStatementQuery query = any.unpack(CommandStatementQuery.class);
        if (query.hasTransactionId()) {
          throw FlightErrors.unimplemented("Transactions");
        }
        return submit(principal, query.getQuery(), List.of(), submissionId, format, notes);
      }
      if (any.is(CommandPreparedStatementQuery.class)) {
        PreparedHandle handle =
            statements.openPrepared(
                principal,
                any.unpack(CommandPreparedStatementQuery.class).getPreparedStatementHandle());
        return submit(principal, handle.sql(), handle.parameters(), submissionId, format, notes);
      }
    } catch (InvalidProtocolBufferException e) {
      throw unsupportedCommand();
    }
    throw unsupportedCommand();
  }

  private JobStatus submit(
      Principal principal,
      String sql,
      List<Object> parameters,
      Optional<String> submissionId,
      ResultFormat format,
      CallNotes notes) {
    StatementHandler.Planned planned = statements.plan(principal, sql, notes);
    return durable.submit(
        principal,
        planned.query(),
        parameters,
        planned.snapshots(),
        planned.schema(),
        submissionId,
        format);
  }

  /** The FlightInfo of a status; FAILED and CANCELLED jobs raise their error instead. */
  private static FlightInfo info(JobStatus status, FlightDescriptor descriptor) {
    if (status.state() == JobState.FAILED || status.state() == JobState.CANCELLED) {
      throw status
          .error()
          .orElseGet(() -> new LakeException(ErrorCode.INTERNAL, "job failed without a reason"));
    }
    List<FlightEndpoint> endpoints =
        status.parts().stream()
            .map(p -> new FlightEndpoint(new Ticket(p.ticket()), p.expiresAt()))
            .toList();
    long rows = status.done() ? status.parts().stream().mapToLong(p -> p.rows()).sum() : -1;
    long bytes = status.done() ? status.parts().stream().mapToLong(p -> p.bytes()).sum() : -1;
    // ordered: parts are the result in order, so an ORDER BY survives concatenation
    return new FlightInfo(
        ColumnMetadata.decorate(status.schema()),
        descriptor,
        endpoints,
        bytes,
        rows,
        true,
        IpcOption.DEFAULT);
  }

  private static LakeException unsupportedCommand() {
    return new LakeException(
        ErrorCode.INVALID_ARGUMENT,
        "PollFlightInfo takes a CommandStatementQuery, a CommandPreparedStatementQuery or the"
            + " descriptor a previous PollFlightInfo returned");
  }

  /** A stored part as a {@link QueryExecution} for the {@link ResultStreamer}. */
  private static final class PartExecution implements QueryExecution {
    private final ArrowReader reader;

    PartExecution(ArrowReader reader) {
      this.reader = reader;
    }

    @Override
    public ArrowReader reader() {
      return reader;
    }

    /** Nothing runs: the streamer stops reading on cancel, and close releases the reader. */
    @Override
    public void cancel() {}

    @Override
    public void close() {
      try {
        reader.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
