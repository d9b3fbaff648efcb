# Report targets, included by the Makefile (which defines CONVLAB, BUILD_DIR and `convlab`).
#
#   make report                     report/report.pdf from every outputs/<name>/results.json
#   make report CONFIG=configs/x.yaml    outputs/x/report.pdf: that experiment alone
#   make figures CONFIG=configs/x.yaml   export and render outputs/x/ only
#   make compare A=outputs/x B=outputs/y [THRESHOLD=5%]   exit 1 when a point of B is slower
#
# Incremental: an experiment is re-exported when its results.json, its config
# (configs/<name>.yaml), its discussion (experiments/<name>.md) or convlab changed; the export
# rewrites only files whose content changed and draws only stale figures. A figure gnuplot cannot
# draw is an error box in the PDF, and the build ends with status 1 naming it.

REPORT_RESULTS_DIRS := $(patsubst %/results.json,%,$(wildcard outputs/*/results.json))
REPORT_STAMPS := $(addsuffix /export/.stamp,$(REPORT_RESULTS_DIRS))
THRESHOLD ?=

.PHONY: help-report report-deps report figures compare experiment-report

report-deps:
	@scripts/install-deps.sh report
	@scripts/install-deps.sh photos

# CONFIG given (on the command line or in the environment, not the Makefile's default): the report
# of that experiment alone.
EXPERIMENT_REPORT := $(filter command line environment,$(origin CONFIG))

report: convlab report-deps ## build report/report.pdf from every experiment with results; CONFIG=configs/x.yaml: outputs/x/report.pdf, that experiment alone
ifneq ($(EXPERIMENT_REPORT),)
	@$(MAKE) --no-print-directory experiment-report
else
	@$(MAKE) --no-print-directory report/report.pdf
endif

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
	@test ! -s outputs/$(FIGURES_NAME)/export/not-drawn.txt || \
	  { sed 's/^/convlab: not drawn: /' outputs/$(FIGURES_NAME)/export/not-drawn.txt >&2; exit 1; }

experiment-report: convlab
	@test -e outputs/$(FIGURES_NAME)/results.json || \
	  { echo "convlab: no outputs/$(FIGURES_NAME)/results.json; run make experiment CONFIG="$(CONFIG_WORD)" first" >&2; exit 2; }
	scripts/report/build-experiment-report.sh $(CONVLAB) outputs/$(FIGURES_NAME)

compare: convlab ## compare two results point by point: A=outputs/x B=outputs/y [THRESHOLD=5%]
	@test -n "$(A)" -a -n "$(B)" || { echo "usage: make compare A=outputs/x B=outputs/y [THRESHOLD=5%]" >&2; exit 2; }
	$(CONVLAB) compare $(A) $(B) $(if $(THRESHOLD),--threshold $(THRESHOLD))
