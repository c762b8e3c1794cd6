package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.bench.FlightSqlFloor.Rpc;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** The JDBC floor answers the driver's executeQuery with its four RPCs, and nothing else. */
class FlightSqlFloorTest {
  private static final String SQL = "SELECT * FROM lake.tpch.nation";

  @Test
  void executeQuery_throughTheJdbcDriver_readsTheRows_withExactlyTheFourPreparedStatementRpcs()
      throws Exception {
    // GIVEN a floor holding three rows for one statement, for one bearer token
    try (RootAllocator allocator = new RootAllocator();
        FlightSqlFloor floor = FlightSqlFloor.start(allocator, SQL, rows(allocator), "t0k3n");
        Connection jdbc = ClientSides.flightSqlJdbc(floor.uri(), "t0k3n")) {
      // WHEN the driver runs the statement twice, every value read
      List<String> first = query(jdbc, SQL);
      List<String> second = query(jdbc, SQL);

      // THEN it reads the rows each time
      assertThat(first).containsExactly("0|ALGERIA", "1|ARGENTINA", "2|BRAZIL");
      assertThat(second).isEqualTo(first);
      // AND each query cost exactly one call of each of the four RPCs
      for (Rpc rpc : Rpc.values()) {
        assertThat(floor.calls(rpc)).as(rpc.name()).isEqualTo(2);
      }
    }
  }

  @Test
  void floor_refusesAnotherTokenAndAnotherStatement_andStillAnswersItsOwn() throws Exception {
    // GIVEN a floor for one statement and one token
    try (RootAllocator allocator = new RootAllocator();
        FlightSqlFloor floor = FlightSqlFloor.start(allocator, SQL, rows(allocator), "t0k3n")) {
      // WHEN a client presents another token THEN its connection is refused (the driver's
      // handshake on connect carries the token) before any RPC is answered
      assertThatThrownBy(() -> ClientSides.flightSqlJdbc(floor.uri(), "other").close())
          .isInstanceOf(SQLException.class)
          .hasStackTraceContaining("UNAUTHENTICATED");
      try (Connection jdbc = ClientSides.flightSqlJdbc(floor.uri(), "t0k3n")) {
        // AND another statement is INVALID_ARGUMENT, not an answer
        assertThatThrownBy(() -> query(jdbc, "SELECT 1"))
            .isInstanceOf(SQLException.class)
            .hasStackTraceContaining("the floor serves only");
        assertThat(floor.calls(Rpc.CREATE_PREPARED_STATEMENT)).isZero();
        // AND its own statement still works on the same connection
        assertThat(query(jdbc, SQL)).hasSize(3);
      }
    }
  }

  private static List<String> query(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getObject(1) + "|" + rs.getObject(2));
      }
    }
    return out;
  }

  private static RawFlightServer.Dataset rows(RootAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                Field.nullable("n_nationkey", new ArrowType.Int(32, true)),
                Field.nullable("n_name", ArrowType.Utf8.INSTANCE)));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      IntVector key = (IntVector) root.getVector(0);
      VarCharVector name = (VarCharVector) root.getVector(1);
      String[] names = {"ALGERIA", "ARGENTINA", "BRAZIL"};
      for (int i = 0; i < names.length; i++) {
        key.setSafe(i, i);
        name.setSafe(i, names[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      root.setRowCount(names.length);
      return new RawFlightServer.Dataset(
          schema, List.of(new VectorUnloader(root).getRecordBatch()));
    }
  }
}
