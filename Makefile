# The two entry points the README gives; everything else lives in scripts/.
.PHONY: serve test build

serve:
	scripts/serve.sh

test:
	scripts/test.sh

build:
	scripts/build.sh
