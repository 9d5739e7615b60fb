// Package golangci is depcon's golangci-lint module plugin.
//
// It serves the analyzers of [github.com/depcon/depcon/analyzers/suite] as
// one linter, named depcon, inside a custom golangci-lint (v2) binary.
//
// # Building the binary
//
// A module plugin is compiled into golangci-lint, so a custom binary has to
// be built once; nothing is loaded at run time. README.md in this directory
// has the details.
//
// With golangci-lint custom, where git can reach golangci-lint's
// repository: put a .custom-gcl.yml at the root of your project (the one in
// this directory is a commented example) and run
//
//	golangci-lint custom # writes ./custom-gcl, a golangci-lint with depcon inside
//
// The manual way, where only a Go module proxy is reachable (this is what
// integration_test.go does):
//
//	VERSION=v2.15.0
//	DIR=$(go mod download -json github.com/golangci/golangci-lint/v2@$VERSION | jq -r .Dir)
//	cp -r "$DIR" /tmp/gcl && chmod -R u+w /tmp/gcl && cd /tmp/gcl
//	printf 'package main\n\nimport _ "github.com/depcon/depcon/analyzers/golangci"\n' > cmd/golangci-lint/plugins.go
//	go mod edit -require=github.com/depcon/depcon@v0.0.0 -replace=github.com/depcon/depcon=/path/to/depcon
//	GOFLAGS=-mod=mod go mod tidy
//	GOFLAGS=-mod=mod go build -o custom-gcl ./cmd/golangci-lint
//
// Leave out -replace (and require a real version of depcon) to build from
// the module proxy instead of a local checkout.
//
// # Enabling the linter
//
// In the .golangci.yml of the project to check (golangci-lint v2 format):
//
//	version: "2"
//	linters:
//	  enable:
//	    - depcon
//	  settings:
//	    custom:
//	      depcon:
//	        type: module
//	        description: thread-safety violations (self-deadlock, lock-order inversion, ...)
//	        original-url: github.com/depcon/depcon
//	        settings:
//	          # Analyzers of the suite not to run (optional), e.g. [unguarded].
//	          disable: []
//
// then run the custom binary as usual: ./custom-gcl run ./...
//
// The issues come from the linter depcon; their text starts with the name of
// the analyzer that reported them ("selfdeadlock: ..."), which is also the
// name to put in disable. An unknown name in disable, or any settings key
// other than disable, stops golangci-lint with an error naming the problem
// and the known analyzers.
//
// The analyzers need type information, so the plugin asks for the load mode
// [register.LoadModeTypesInfo]. golangci-lint runs an analyzer that has
// facts on the imported packages too, so the facts cross package boundaries
// as they do under go vet.
package golangci
