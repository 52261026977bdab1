package api

// Webhooks: a project's addresses that receive a signed JSON POST when a
// run or a batch finishes (hub/webhooks sends them; migration 0017 queues
// them when a run ends).
//
// Every route needs access.ManageWebhooks (Test Manager, Admin): a
// webhook's address may name internal hosts or carry a token, so even the
// list is theirs alone. The signing secret is made by the hub, answered
// once (on create and on rotation), and stored sealed with the hub's secret
// box, since it is needed to sign, not to compare.

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/ids"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/hub/webhooks"
)

// Identifier kinds of webhooks and their deliveries.
const (
	kindWebhook  = "whk"
	kindDelivery = "whd"
)

const webhookNotFound = "no such webhook, or it is not in this project"

// maxDeliveries bounds a delivery log's answer.
const maxDeliveries = 100

type webhookJSON struct {
	ID           string            `json:"id"`
	ProjectID    string            `json:"projectId"`
	Name         string            `json:"name"`
	URL          string            `json:"url"`
	Events       []string          `json:"events"`
	Format       string            `json:"format"`
	Enabled      bool              `json:"enabled"`
	CreatedAt    string            `json:"createdAt"`
	UpdatedAt    string            `json:"updatedAt"`
	LastDelivery *lastDeliveryJSON `json:"lastDelivery,omitempty"`
	Secret       string            `json:"secret,omitempty"` // only in the answer that made it
}

type lastDeliveryJSON struct {
	Status         string `json:"status"`
	At             string `json:"at"`
	ResponseStatus *int   `json:"responseStatus"`
}

func toWebhookJSON(wh store.Webhook) webhookJSON {
	out := webhookJSON{ID: wh.ID, ProjectID: wh.ProjectID, Name: wh.Name, URL: wh.URL, Events: wh.Events, Format: wh.Format, Enabled: wh.Enabled,
		CreatedAt: wh.CreatedAt.UTC().Format(timeFormat), UpdatedAt: wh.UpdatedAt.UTC().Format(timeFormat)}
	if out.Events == nil {
		out.Events = []string{}
	}
	if l := wh.Last; l != nil && l.LastAttemptAt != nil {
		out.LastDelivery = &lastDeliveryJSON{Status: l.Status, At: l.LastAttemptAt.UTC().Format(timeFormat), ResponseStatus: l.ResponseStatus}
	}
	return out
}

type deliveryJSON struct {
	ID             string            `json:"id"`
	Event          string            `json:"event"`
	Subject        string            `json:"subject"`
	Status         string            `json:"status"`
	Attempts       int               `json:"attempts"`
	ResponseStatus *int              `json:"responseStatus,omitempty"`
	Error          string            `json:"error,omitempty"`
	DurationMs     *int64            `json:"durationMs,omitempty"`
	CreatedAt      string            `json:"createdAt"`
	LastAttemptAt  *string           `json:"lastAttemptAt,omitempty"`
	NextAttemptAt  *string           `json:"nextAttemptAt,omitempty"`
	AttemptLog     []json.RawMessage `json:"attemptLog"` // [{at, responseStatus?, error?, durationMs}]
}

func toDeliveryJSON(d store.Delivery) deliveryJSON {
	out := deliveryJSON{ID: d.ID, Event: d.Event, Subject: d.Subject, Status: d.Status, Attempts: d.Attempts, ResponseStatus: d.ResponseStatus,
		Error: d.Error, DurationMs: d.DurationMs, CreatedAt: d.CreatedAt.UTC().Format(timeFormat),
		LastAttemptAt: timePtr(d.LastAttemptAt), AttemptLog: []json.RawMessage{}}
	if d.Status == "pending" {
		out.NextAttemptAt = timePtr(d.NextAttemptAt)
	}
	_ = json.Unmarshal(d.AttemptLog, &out.AttemptLog)
	return out
}

func (s *Server) listWebhooks(w http.ResponseWriter, r *http.Request) {
	if !allow(w, headerScope(r), access.ManageWebhooks) {
		return
	}
	listInProject(s, w, r, "webhooks", s.store.Webhooks, toWebhookJSON)
}

// webhookInput is a decoded POST /api/webhooks body; nil fields keep their
// value on update and take the default on create.
type webhookInput struct {
	id, name, url string
	events        []string
	format        *string
	enabled       *bool
}

func readWebhookInput(fields map[string]json.RawMessage) (webhookInput, issueList) {
	var in webhookInput
	var issues issueList
	in.id = strings.TrimSpace(getField(fields, "id").str("id", &issues))
	in.name = strings.TrimSpace(getField(fields, "name").str("name", &issues))
	issues.name("name", in.name)
	in.url = strings.TrimSpace(getField(fields, "url").str("url", &issues))
	if msg := webhooks.CheckURL(in.url); msg != "" {
		code := "format"
		if in.url == "" {
			code = "required"
		}
		issues.add("url", code, msg)
	}
	if f := getField(fields, "events"); f.present && !f.null {
		var evs []string
		if err := json.Unmarshal(f.raw, &evs); err != nil {
			issues.add("events", "type", "events must be an array of event names")
		} else {
			in.events = []string{}
			for _, ev := range evs {
				if !slices.Contains(webhooks.Events, ev) {
					issues.add("events", "unknown_event", "events may hold run.finished and batch.finished")
					break
				}
				if !slices.Contains(in.events, ev) {
					in.events = append(in.events, ev)
				}
			}
			if len(in.events) == 0 && len(issues) == 0 {
				issues.add("events", "required", "choose at least one event")
			}
		}
	}
	if f := getField(fields, "format"); f.present && !f.null {
		v := f.str("format", &issues)
		if v != webhooks.FormatJSON && v != webhooks.FormatSlack {
			issues.add("format", "format", "format must be json or slack")
		}
		in.format = &v
	}
	if f := getField(fields, "enabled"); f.present && !f.null {
		var b bool
		if err := json.Unmarshal(f.raw, &b); err != nil {
			issues.add("enabled", "type", "enabled must be true or false")
		}
		in.enabled = &b
	}
	return in, issues
}

// saveWebhook creates a webhook (201, with its signing secret, shown this
// once) or updates the header project's webhook named by id (200).
func (s *Server) saveWebhook(w http.ResponseWriter, r *http.Request) {
	sc := headerScope(r)
	if !allow(w, sc, access.ManageWebhooks) {
		return
	}
	fields, ok := readObject(w, r)
	if !ok {
		return
	}
	in, issues := readWebhookInput(fields)
	if len(issues) > 0 {
		writeIssues(w, "the webhook is not valid", issues)
		return
	}
	u, _ := currentUser(r)
	ws := store.WebhookSave{ID: in.id, ProjectID: sc.Project.ID, Create: in.id == "", Name: in.name, URL: in.url,
		Events: webhooks.Events, Format: webhooks.FormatJSON, Enabled: true, UserID: u.ID, Now: s.Now()}
	var secret string
	if ws.Create {
		box := s.secretBox()
		if box == nil {
			errNoSecretBox(w)
			return
		}
		ws.ID = ids.New(kindWebhook)
		secret = webhooks.NewSecret()
		var err error
		if ws.SecretCiphertext, ws.SecretNonce, err = box.Seal([]byte(secret), webhooks.SecretAAD(ws.ID)); err != nil {
			s.internal(w, r, err)
			return
		}
	} else {
		old, ok := loadBodyRecord(s, w, r, sc, kindWebhook, in.id, webhookNotFound, s.store.Webhook,
			func(h store.Webhook) string { return h.ProjectID })
		if !ok {
			return
		}
		ws.Events, ws.Format, ws.Enabled = old.Events, old.Format, old.Enabled
	}
	if in.events != nil {
		ws.Events = in.events
	}
	if in.format != nil {
		ws.Format = *in.format
	}
	if in.enabled != nil {
		ws.Enabled = *in.enabled
	}
	wh, err := s.store.SaveWebhook(r.Context(), ws)
	switch {
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "webhook_exists", "the project has a webhook with this name")
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, webhookNotFound)
	case err != nil:
		s.internal(w, r, err)
	case ws.Create:
		out := toWebhookJSON(wh)
		out.Secret = secret
		writeJSON(w, http.StatusCreated, out)
	default:
		writeJSON(w, http.StatusOK, toWebhookJSON(wh))
	}
}

// loadWebhook resolves /webhooks/{id}: another project's answers 404 and
// is audited; a member without ManageWebhooks gets 403.
func (s *Server) loadWebhook(w http.ResponseWriter, r *http.Request) (store.Webhook, scope, bool) {
	id := chi.URLParam(r, "id")
	wh, err := store.Webhook{}, store.ErrNotFound
	if ids.Valid(kindWebhook, id) {
		wh, err = s.store.Webhook(r.Context(), id)
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return wh, scope{}, false
	}
	if err != nil {
		writeError(w, http.StatusNotFound, codeNotFound, webhookNotFound)
		return wh, scope{}, false
	}
	sc, ok := s.recordScope(w, r, wh.ProjectID, webhookNotFound)
	if !ok || !allow(w, sc, access.ManageWebhooks) {
		return wh, sc, false
	}
	return wh, sc, true
}

func (s *Server) deleteWebhook(w http.ResponseWriter, r *http.Request) {
	wh, sc, ok := s.loadWebhook(w, r)
	if !ok {
		return
	}
	if err := s.store.DeleteWebhook(r.Context(), sc.Project.ID, wh.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// rotateWebhookSecret makes a new signing secret, answered this once;
// deliveries from now on (retries included) are signed with it.
func (s *Server) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) {
	wh, sc, ok := s.loadWebhook(w, r)
	if !ok {
		return
	}
	box := s.secretBox()
	if box == nil {
		errNoSecretBox(w)
		return
	}
	secret := webhooks.NewSecret()
	ct, nonce, err := box.Seal([]byte(secret), webhooks.SecretAAD(wh.ID))
	if err != nil {
		s.internal(w, r, err)
		return
	}
	switch err := s.store.SetWebhookSecret(r.Context(), sc.Project.ID, wh.ID, ct, nonce, s.Now()); {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, webhookNotFound)
	case err != nil:
		s.internal(w, r, err)
	default:
		writeJSON(w, http.StatusOK, map[string]string{"id": wh.ID, "secret": secret})
	}
}

// testWebhook queues a ping now: 202 with the delivery's id.
func (s *Server) testWebhook(w http.ResponseWriter, r *http.Request) {
	wh, _, ok := s.loadWebhook(w, r)
	if !ok {
		return
	}
	id := ids.New(kindDelivery)
	if err := s.store.QueuePing(r.Context(), wh.ID, id); err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]string{"deliveryId": id})
}

// webhookDeliveries answers the webhook's newest deliveries, newest first.
func (s *Server) webhookDeliveries(w http.ResponseWriter, r *http.Request) {
	wh, _, ok := s.loadWebhook(w, r)
	if !ok {
		return
	}
	ds, err := s.store.WebhookDeliveries(r.Context(), wh.ID, maxDeliveries)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	out := make([]deliveryJSON, 0, len(ds))
	for _, d := range ds {
		out = append(out, toDeliveryJSON(d))
	}
	writeJSON(w, http.StatusOK, map[string]any{"deliveries": out})
}
