package authoring

import (
	"testing"

	"github.com/testautomation/ta/protocol"
)

func TestSubstitution(t *testing.T) {
	sub := Substitution{BaseURL: "https://shop.example.com/", Secrets: map[string]string{"PW": "hunter22", "PIN": "42", "LONG": "hunter22-and-more"}}
	for _, c := range []struct{ in, url, text string }{
		{"https://shop.example.com", "${baseUrl}", "https://shop.example.com"},
		{"https://shop.example.com/login?next=/", "${baseUrl}/login?next=/", ""},
		{"https://shop.example.com#top", "${baseUrl}#top", ""},
		{"https://shop.example.company/", "https://shop.example.company/", ""},
		{"https://other.example.com/shop.example.com", "https://other.example.com/shop.example.com", ""},
		{"hunter22", "", "${secrets.PW}"},
		{"42", "", "${secrets.PIN}"},
		{"a 42 b", "", "a 42 b"}, // too short to replace inside a text
		{"my hunter22-and-more!", "", "my ${secrets.LONG}!"},
		{"x\x00hunter\x0022", "", "x${secrets.PW}"},
	} {
		if c.url != "" {
			if got := sub.url(c.in); got != c.url {
				t.Errorf("url(%q) = %q, want %q", c.in, got, c.url)
			}
		}
		if c.text != "" {
			if got := sub.text(c.in); got != c.text {
				t.Errorf("text(%q) = %q, want %q", c.in, got, c.text)
			}
		}
	}
	st := protocol.Step{ID: "s1", Type: "fill", Value: protocol.Ptr("hunter22"), Target: &protocol.Target{
		Locators:    []protocol.Locator{{Kind: "text", Value: "hunter22"}, {Kind: "label", Value: "Password"}},
		Fingerprint: map[string]string{"value": "hunter22", "id": "pw"}}}
	sub.Step(&st)
	if *st.Value != "${secrets.PW}" || len(st.Target.Locators) != 1 || st.Target.Locators[0].Kind != "label" ||
		st.Target.Fingerprint["value"] != "" || st.Target.Fingerprint["id"] != "pw" {
		t.Errorf("step %+v %+v", st, st.Target)
	}
}
