# The commands the README promises. Each installs what it needs first.
SWIFT ?= swift

.PHONY: deps build test release run

deps:
	./scripts/install-deps

build: deps
	$(SWIFT) build

# The tests are XCTest; Swift Testing is off so the run closes on their count, not on an empty run.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

# The main job: a private bus, the daemon with the simulated sensor, and a demo.
run: build
	./scripts/demo
