//go:build !headless && cgo

package main

// Fyne reads the user's locale while its packages initialise, before main
// runs, and under a C locale with a codeset (LANG=C.UTF-8, the default of
// Debian containers and services) logs "Fyne error: Error parsing user
// locale C" on every start, headless or not. Only code that runs before Go
// starts can change that: this constructor, when LANGUAGE is unset and the
// effective locale (LC_ALL, LC_MESSAGES, LANG: the first set) is C or POSIX
// with a codeset or modifier, sets LANGUAGE=en (English is what the C
// locale means) and starts the agent again with it. LANG itself is kept,
// for the browser and every child process.

/*
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int ta_c_locale(const char *v) {
	return (strncmp(v, "C", 1) == 0 && (v[1] == '.' || v[1] == '@')) ||
		(strncmp(v, "POSIX", 5) == 0 && (v[5] == '.' || v[5] == '@'));
}

__attribute__((constructor)) static void ta_quiet_locale(int argc, char **argv) {
	const char *lang = getenv("LANGUAGE");
	if (lang != NULL && lang[0] != '\0') {
		return;
	}
	const char *keys[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
	for (int i = 0; i < 3; i++) {
		const char *v = getenv(keys[i]);
		if (v == NULL || v[0] == '\0') {
			continue;
		}
		if (ta_c_locale(v) && setenv("LANGUAGE", "en", 1) == 0) {
			execv("/proc/self/exe", argv); // on failure the agent starts as it is
		}
		return;
	}
}
*/
import "C"
