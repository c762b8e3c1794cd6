# lake: makes moto_server's DynamoDB linearizable, as the real service is.
#
# moto applies a TransactWriteItems call by checking conditions, writing, and on a failed condition
# restoring a copy of the whole table taken when the call began -- without a lock. Under concurrent
# requests a failed transaction can therefore undo another request's committed write, and two racing
# conditional writes can both "win". Real DynamoDB serializes conflicting writes, and lake's
# conditional-write contract tests (and aws-local) depend on that, so every DynamoDB backend call runs
# under one lock. AwsEmulator puts this directory on PYTHONPATH of the moto_server it starts; Python
# imports sitecustomize at start-up. Nothing else in moto changes.
import sys
import threading

try:
    from moto.dynamodb.models import DynamoDBBackend
except Exception:  # an interpreter without moto: nothing to do
    DynamoDBBackend = None

if DynamoDBBackend is not None:
    _LOCK = threading.RLock()

    def _serialized(fn):
        def call(*args, **kwargs):
            with _LOCK:
                return fn(*args, **kwargs)

        call.__wrapped__ = fn
        return call

    for _name in (
        "batch_get_item",
        "batch_write_item",
        "delete_item",
        "execute_statement",
        "execute_transaction",
        "get_item",
        "put_item",
        "query",
        "scan",
        "transact_get_items",
        "transact_write_items",
        "update_item",
    ):
        setattr(DynamoDBBackend, _name, _serialized(getattr(DynamoDBBackend, _name)))
    print("lake: moto DynamoDB calls serialized", file=sys.stderr)
