# Report targets, included by the Makefile (which defines CONVLAB, BUILD_DIR and `convlab`).
#
#   make report                     report/report.pdf from every outputs/<name>/results.json
#   make figures CONFIG=configs/x.yaml   export and render outputs/x/ only
#   make compare A=outputs/x B=outputs/y [THRESHOLD=5%]   exit 1 when a point of B is slower
#
# Incremental: an experiment is re-exported when its results.json, its config
# (configs/<name>.yaml), its discussion (experiments/<name>.md) or convlab changed; the export
# rewrites only files whose content changed and render-figures.sh redraws only stale figures.

REPORT_RESULTS_DIRS := $(patsubst %/results.json,%,$(wildcard outputs/*/results.json))
REPORT_STAMPS := $(addsuffix /export/.stamp,$(REPORT_RESULTS_DIRS))
THRESHOLD ?=

.PHONY: help-report report-deps report figures compare

report-deps:
	@scripts/install-deps.sh report
	@scripts/install-deps.sh photos

report: convlab report-deps ## build report/report.pdf from every experiment with results
	@$(MAKE) --no-print-directory report/report.pdf

.SECONDEXPANSION:
outputs/%/export/.stamp: outputs/%/results.json $$(wildcard configs/$$*.yaml) \
                         $$(wildcard experiments/$$*.md) $(CONVLAB)
	$(CONVLAB) gallery outputs/$*
	scripts/report/export-experiment.sh $(CONVLAB) outputs/$*
	@touch $@

report/report.pdf: $(REPORT_STAMPS) report/report.tex report/convlab-macros.tex report/outline.yaml report/summary.tex \
                   scripts/report/build-report.sh
	scripts/report/build-report.sh --no-export $(CONVLAB) $(REPORT_RESULTS_DIRS)

# The experiment's name is the config's `name:` (results live in outputs/<name>/).
FIGURES_NAME = $(shell sed -n 's/^name:[[:space:]]*//p' $(CONFIG_WORD) 2>/dev/null | head -1)

figures: convlab report-deps ## export and render one experiment's figures: CONFIG=configs/<name>.yaml
	@test -e outputs/$(FIGURES_NAME)/results.json || \
	  { echo "convlab: no outputs/$(FIGURES_NAME)/results.json; run make experiment CONFIG="$(CONFIG_WORD)" first" >&2; exit 2; }
	@$(MAKE) --no-print-directory outputs/$(FIGURES_NAME)/export/.stamp

compare: convlab ## compare two results point by point: A=outputs/x B=outputs/y [THRESHOLD=5%]
	@test -n "$(A)" -a -n "$(B)" || { echo "usage: make compare A=outputs/x B=outputs/y [THRESHOLD=5%]" >&2; exit 2; }
	$(CONVLAB) compare $(A) $(B) $(if $(THRESHOLD),--threshold $(THRESHOLD))
