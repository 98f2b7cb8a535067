"""local_llm_discover: the structured-output step of autonomous_fixing (discover_tests) on a real
local model, ``AGENT=local make demo``.

    make llm-up      # llama.cpp + Gemma 3 270M on 127.0.0.1:8012
    airflow dags test local_llm_discover --conf '{"project_path": "examples/sample_project"}'

Gemma 3 270M is a base model at temperature 1.0: invalid answers are common, so the task log shows
real retries chosen by the retry strategy (``AUTOFIX_LOCAL_STRATEGY``; default ``auto``: the schema
as a grammar on attempt 1, then per error category what has recovered best).
"""

from __future__ import annotations

import os

import pendulum
from airflow.sdk import DAG, Param

from autofix.devtools.local_llm import MODEL_NAME, discover_tests_prompt
from autofix.operators import AIWrapperOperator

BASE_URL = os.environ.get("AUTOFIX_OPENAI_BASE_URL", "http://127.0.0.1:8012/v1")

with DAG(
    dag_id="local_llm_discover",
    description="discover_tests on the local llama.cpp model, with retry strategies",
    schedule=None,
    start_date=pendulum.datetime(2025, 1, 1, tz="UTC"),
    catchup=False,
    tags=["autofix", "local-llm"],
    doc_md=__doc__,
    user_defined_macros={"discover_tests_prompt": discover_tests_prompt},
    # agent_options is templated: without this, the stop sequence "\n" renders to "".
    jinja_environment_kwargs={"keep_trailing_newline": True},
    params={
        "project_path": Param("examples/sample_project", type="string"),
    },
) as dag:
    AIWrapperOperator(
        task_id="discover_tests",
        agent="openai",
        model=MODEL_NAME,
        prompt="{{ discover_tests_prompt(params.project_path) }}",
        output_schema="autofix.fixing.testconfig:TestConfig",
        max_attempts=3,
        retry_strategy=os.environ.get("AUTOFIX_LOCAL_STRATEGY", "auto"),
        agent_options={
            "base_url": BASE_URL,
            "mode": "completions",
            "temperature": 1.0,
            "seed": int(os.environ.get("AUTOFIX_LOCAL_SEED", "10")),
            "max_tokens": 96,
            "stop": ["\n"],
        },
        timeout=300,
    )
