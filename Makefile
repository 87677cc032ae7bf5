# The two entry points the README gives; everything else lives in scripts/.
.PHONY: serve test build bench

serve:
	scripts/serve.sh

test:
	scripts/test.sh

build:
	scripts/build.sh

bench:
	scripts/build.sh --test
	node bench/run.mjs
