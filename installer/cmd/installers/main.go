// Command installers builds the agent's installers (make installers):
//
//	go run ./installer/cmd/installers --out dist/installers [--downloads data/downloads] [--cache DIR] [--jobs N]
//
// --downloads copies them where a hub serves them (HUB_DOWNLOADS, default
// <data>/downloads). A platform whose inputs did not change since a build
// is taken from the cache (--cache, default $TA_INSTALLERS_CACHE, else
// ~/.cache/ta-installers; --cache "" builds everything); the others build
// --jobs at a time (default: one per core).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/testautomation/ta/installer"
)

func main() {
	out := flag.String("out", "dist/installers", "output folder")
	downloads := flag.String("downloads", "", "also copy the installers into this hub downloads folder")
	version := flag.String("version", "0.1.0", "the agent's version (semantic)")
	commit := flag.String("commit", gitCommit(), "the commit stamped into the agent")
	cache := flag.String("cache", installer.DefaultCache(), "keep each platform's packages here, by a hash of their inputs (\"\": no cache)")
	jobs := flag.Int("jobs", 0, "platforms built at once (0: one per core)")
	flag.Parse()
	repo, err := os.Getwd()
	if err == nil {
		_, err = os.Stat(filepath.Join(repo, "agent", "main.go"))
	}
	if err != nil {
		fail(fmt.Errorf("run from the repository's root (agent/main.go not found): %v", err))
	}
	made, err := installer.Build(context.Background(), installer.Options{Out: *out, Repo: repo, Version: *version, Commit: *commit,
		Targets: installer.DefaultTargets(), Log: os.Stdout, Cache: *cache, Jobs: *jobs})
	if err != nil {
		fail(err)
	}
	for _, m := range made {
		fmt.Println(filepath.Join(*out, m))
	}
	if *downloads != "" {
		if err := installer.Publish(*out, *downloads, made); err != nil {
			fail(err)
		}
		fmt.Println("copied to", *downloads)
	}
}

func gitCommit() string {
	out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "installers:", err)
	os.Exit(1)
}
