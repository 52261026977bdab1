package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// OfferFile is AuthorFiles for the sessions the hub starts: it offers a
// file a person chose in a recorded page to the hub (POST
// /api/agent/files?session=&name= with the agent's token), which asks the
// person and answers once they did: the new project file's id, or an
// error saying why not (declined, nobody answered, the recording ended).
func (s liveSink) OfferFile(ctx context.Context, session, name string, data []byte) (string, error) {
	return s.c.offerFile(ctx, session, name, data)
}

// offerClient waits for a person: the hub holds an offer up to 5 minutes.
var offerClient = &http.Client{Timeout: 7 * time.Minute}

func (c *Client) offerFile(ctx context.Context, session, name string, data []byte) (string, error) {
	if len(data) > maxFile {
		return "", fmt.Errorf("%s is larger than 25 MiB, the limit of a project file", name)
	}
	token := c.Token()
	if token == "" {
		return "", errors.New("the agent has no token to offer the file with")
	}
	u := strings.TrimSuffix(c.httpHub(), "/") + "/api/agent/files?" + url.Values{"session": {session}, "name": {name}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Agent "+token)
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := offerClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("could not offer %s to the hub: %w", name, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	var out struct{ ID, Error, Code string }
	_ = json.Unmarshal(body, &out)
	if resp.StatusCode != http.StatusCreated || !fileIDRe.MatchString(out.ID) {
		if out.Error == "" {
			out.Error = resp.Status
		}
		return "", fmt.Errorf("%s is not uploaded: %s (%s)", name, out.Error, out.Code)
	}
	return out.ID, nil
}
