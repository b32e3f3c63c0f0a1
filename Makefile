# Two commands for users: `make run` (the quickstart experiment) and `make test` (everything CI runs).
PY ?= python3
# A CPU-only machine must never pull a multi-GB CUDA build of torch: pin the CPU wheel there.
TORCH_SPEC ?= $(shell command -v nvidia-smi >/dev/null 2>&1 && echo 'torch>=2.1' || echo 'torch==2.13.0')
# torchvision (augmentations of 72_images): each release requires one torch release exactly; 0.28.0 is torch 2.13.0's.
TORCHVISION_SPEC ?= $(shell command -v nvidia-smi >/dev/null 2>&1 && echo 'torchvision' || echo 'torchvision==0.28.0')
RUN_PARAMS ?=
RUN ?= $(shell date -u +%Y%m%d-%H%M%S)

.PHONY: install run run-name test test-slow test-nbs export clean-nbs lab readme docs docs-check notebooks index dna-data text-data

install:
	@$(PY) -c "import torch" 2>/dev/null || $(PY) -m pip install "$(TORCH_SPEC)" "$(TORCHVISION_SPEC)"
	@$(PY) -c "import importlib.util as u, sys; sys.exit(u.find_spec('torchvision') is None)" || $(PY) -m pip install "$(TORCHVISION_SPEC)"
	@$(PY) -c "import nbdev, papermill, execnb, pytest, xdist, seaborn, datasets, tiktoken, safetensors, triton, lm_eval, fastcore, Bio, sklearn, ray, huggingface_hub, tokenizers, lxml, importlib.util; assert nbdev.__version__.startswith('2.') and importlib.util.find_spec('torchvision')" 2>/dev/null \
	  || $(PY) -m pip install -e ".[dev]"
	@$(PY) -m pip install -q --no-deps --no-build-isolation -e . 2>&1 | grep -v -i "warning: running pip as" || true

# RUN names one folder under runs/quickstart/cpu: letters, digits, '.', '_', '-', not '.' or '..', checked before
# anything runs (a shell never sees another name)
_NAME_CHARS := a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O P Q R S T U V W X Y Z 0 1 2 3 4 5 6 7 8 9 . _ -
_strip_chars = $(if $2,$(call _strip_chars,$(subst $(firstword $2),,$1),$(wordlist 2,$(words $2),$2)),$1)
_bad_name = $(or $(filter-out 1,$(words $1)),$(filter . ..,$1),$(call _strip_chars,$1,$(_NAME_CHARS)),$(if $1,,empty))

run-name:
	$(if $(call _bad_name,$(RUN)),$(error error: RUN must be a single folder name (letters, digits, '.', '_', '-'; not '.' or '..'), got '$(RUN)'))
	@true

run: run-name install
	@test ! -e runs/quickstart/cpu/$(RUN)/metrics.json || { echo "runs/quickstart/cpu/$(RUN) is a finished run: pick another RUN="; exit 1; }
	mkdir -p runs/quickstart/cpu/$(RUN)
	$(PY) -m papermill nbs/experiments/19_quickstart.ipynb runs/quickstart/cpu/$(RUN)/quickstart.ipynb -p run_name $(RUN) $(RUN_PARAMS)

export:
	nbdev_export

# pytest in TEST_WORKERS processes (pytest-xdist), a test file to a process (a file's module fixtures run once);
# TEST_WORKERS=0 runs every test in this one process
TEST_WORKERS ?= 2

test: install
	bash scripts/check_export.sh
	$(PY) -m pytest -q tests -n $(TEST_WORKERS) --dist loadfile

# The tests marked slow too (minutes each in Triton's interpreter; a GPU run checks the same cases compiled)
test-slow: install
	$(PY) -m pytest -q tests -n $(TEST_WORKERS) --dist loadfile --slow

# Without a GPU the Triton kernels run in the interpreter, which must be on before any notebook imports triton.
INTERPRET ?= $(shell command -v nvidia-smi >/dev/null 2>&1 && echo 0 || echo 1)

test-nbs: install
	TRITON_INTERPRET=$(INTERPRET) nbdev_test --n_workers 2

clean-nbs:
	nbdev_clean
	bash scripts/check_export.sh

lab: install
	jupyter lab nbs

readme:
	$(PY) scripts/readme.py

# The site in _docs/: a page per notebook, index.html, figures.html (the papers' tables and figures beside ours).
docs: install
	$(PY) scripts/docs.py _docs

# The site rebuilt, then opened in headless Chromium (installed when missing): screenshots in _docs/screenshots/,
# fails when an image does not load or a report's page lacks its figures.
docs-check:
	$(PY) scripts/docs.py _docs
	$(PY) scripts/docs_check.py _docs

# Execute the chapter and report notebooks in place on CPU from the committed runs/ (outputs kept, cleaned,
# deterministic); experiment notebooks whose defaults would train are left alone (the script prints why).
notebooks:
	$(PY) scripts/notebooks.py

index:
	$(PY) -c "from hyena_lit.eval.run_index import write_index; print(len(write_index()), 'runs in runs/index.csv')"

# The reproduction scoreboard (nbs/eval/90_scoreboard.ipynb): runs/index.csv rebuilt from the run folders, then
# runs/scoreboard/ (page, figure, summary line for the README). tests/test_scoreboard.py checks it is up to date.
.PHONY: scoreboard
scoreboard: install
	$(PY) -c "from hyena_lit.eval.run_index import write_index; write_index()"
	$(PY) -c "from hyena_lit.eval.scoreboard import build_scoreboard; print(build_scoreboard(write=True)['summary'], end='')"

# Bacterial reference genomes from two Debian packages (apt-get download + dpkg -x, no root) into data/dna/ (82_dna)
dna-data:
	$(PY) -c "from hyena_lit.data.dna_data import fetch_dna; print(fetch_dna())"

# The scaling grid's corpus (45_text_corpus): the kernel's documentation from Debian's linux-doc-6.1 (apt-get download +
# dpkg -x, no root) into data/text/, split by document, encoded for each tokenizer; its data card beside the runs
text-data:
	$(PY) -c "from hyena_lit.data.text_corpus import build_corpus, write_card; write_card(build_corpus(), 'runs/scaling/corpus_card.json')"
