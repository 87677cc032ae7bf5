# The two entry points the README gives; everything else lives in scripts/.
.PHONY: serve test build bench dist package

serve:
	scripts/serve.sh

test:
	scripts/test.sh

build:
	scripts/build.sh

bench:
	scripts/build.sh --test
	scripts/setup.sh --bench
	node bench/run.mjs
	cargo bench --profile bench-server -p bucketlab-server --bench load

# The static site for any host, under any sub-path: hashed names, .gz/.br copies (see scripts/dist.mjs).
# For a host that reads _headers (Netlify, Cloudflare Pages) under a sub-path: make dist BASE=/courses/x/
# and, for the pages' xAPI statements, their LRS in the CSP's connect-src: make dist LRS=https://lrs.example/xAPI/
# and, for search engines (canonical, hreflang, og:url, sitemap.xml): make dist SITE=https://example.org/courses/x/
# The xAPI (Tin Can) packages name the lesson by XAPI_ACTIVITY=https://courses.example/your-id (scripts/tincan.mjs).
dist:
	scripts/build.sh
	node scripts/dist.mjs

# The npm package, packed into target/npm/ (see scripts/npm-package.mjs).
package:
	scripts/build.sh
	node scripts/npm-package.mjs --pack
