package runner

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// contextJar is the cookie jar of the run's browser context, read and
// written through the page's DevTools session.
type contextJar struct {
	ctx context.Context
	r   *run
}

func (j *contextJar) Cookies(u *url.URL) []*http.Cookie {
	res, err := proto.NetworkGetCookies{Urls: []string{u.String()}}.Call(j.r.sess(j.ctx))
	if err != nil {
		return nil
	}
	out := make([]*http.Cookie, 0, len(res.Cookies))
	for _, c := range res.Cookies {
		out = append(out, &http.Cookie{Name: c.Name, Value: c.Value})
	}
	return out
}

func (j *contextJar) SetCookies(u *url.URL, cookies []*http.Cookie) {
	for _, c := range cookies {
		set := proto.NetworkSetCookie{Name: c.Name, Value: c.Value, URL: u.String(), Domain: c.Domain, Path: c.Path,
			Secure: c.Secure, HTTPOnly: c.HttpOnly}
		if set.Path == "" {
			set.Path = defaultCookiePath(u.Path)
		}
		switch c.SameSite {
		case http.SameSiteLaxMode:
			set.SameSite = proto.NetworkCookieSameSiteLax
		case http.SameSiteStrictMode:
			set.SameSite = proto.NetworkCookieSameSiteStrict
		case http.SameSiteNoneMode:
			set.SameSite = proto.NetworkCookieSameSiteNone
		}
		switch {
		case c.MaxAge < 0:
			set.Expires = proto.TimeSinceEpoch(1) // deletes it
		case c.MaxAge > 0:
			set.Expires = proto.TimeSinceEpoch(time.Now().Add(time.Duration(c.MaxAge) * time.Second).Unix())
		case !c.Expires.IsZero():
			set.Expires = proto.TimeSinceEpoch(c.Expires.Unix())
		}
		_, _ = set.Call(j.r.sess(j.ctx))
	}
}

// defaultCookiePath is RFC 6265's default path of a cookie set without
// one: the request path up to its last slash.
func defaultCookiePath(p string) string {
	i := strings.LastIndex(p, "/")
	if i <= 0 {
		return "/"
	}
	return p[:i]
}
