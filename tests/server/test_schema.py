"""schemathesis against /openapi.json: no 5xx, and no answer outside the schema."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from gradtrace.server import create_app

from .helpers import make_settings

app = create_app(make_settings(workers=2))
# A well-formed request may still be refused as the API documents: a device this server
# lacks (400), a source past the limit (413), a full queue (503).
# A room may not exist (404), the token may be another's (403), the poll closed (409),
# the lecturer too fast (429).
config = SchemathesisConfig.from_dict(
    {
        "checks": {
            "positive_data_acceptance": {"expected-statuses": ["2xx", "400", "413", "503"]},
            # A body past the size limit is refused before it is read: 413, as documented.
            "negative_data_rejection": {
                "expected-statuses": [
                    "400",
                    "401",
                    "403",
                    "404",
                    "405",
                    "406",
                    "409",
                    "413",
                    "415",
                    "422",
                    "428",
                    "429",
                ]
            },
        },
        "operations": [
            {
                "include-path-regex": "^/api/rooms",
                "checks": {
                    "positive_data_acceptance": {
                        "expected-statuses": ["2xx", "403", "404", "409", "429", "503"]
                    }
                },
            }
        ],
    }
)
schema = schemathesis.openapi.from_asgi("/openapi.json", app, config=config)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case: schemathesis.Case) -> None:
    case.call_and_validate()


def test_openapi_names_its_operations_and_has_the_trace_model() -> None:
    document = app.openapi()
    ids = {
        operation["operationId"]
        for path in document["paths"].values()
        for operation in path.values()
    }
    assert {"trace", "health", "examples", "reference"} <= ids
    assert any(name.startswith("Trace") for name in document["components"]["schemas"])
