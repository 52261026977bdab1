package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/testautomation/ta/hub/access"
	"github.com/testautomation/ta/hub/secretbox"
	"github.com/testautomation/ta/hub/store"
	"github.com/testautomation/ta/protocol"
)

// JobSource is what building a run's job reads; *store.Store is one.
type JobSource interface {
	TestVersion(ctx context.Context, testID string, version int) (store.TestVersion, error)
	RunDetail(ctx context.Context, runID string) (store.RunDetail, error)
	TakePoolRecord(ctx context.Context, projectID, poolID, runID, mode string) (store.PoolRecord, error)
	TakeProtectedPoolRecord(ctx context.Context, projectID, poolID, runID, mode string) (store.PoolRecord, error)
	DataSet(ctx context.Context, projectID, id string) (store.DataSet, error)
	SetRunPool(ctx context.Context, runID string, pool []byte) error
	Environment(ctx context.Context, id string) (store.Environment, error)
	Application(ctx context.Context, id string) (store.Application, error)
	EnvironmentSecrets(ctx context.Context, environmentID string) ([]store.SecretRow, error)
	ProjectRole(ctx context.Context, projectID, userID string) (store.Project, access.Role, error)
}

// Opener decrypts secret values; *secretbox.Box is one.
type Opener interface {
	Open(ciphertext, nonce, aad []byte) ([]byte, error)
}

// ErrRefused wraps the reasons a run may not have its job (a protected
// environment's rule, an undecryptable secret): the run ends as error, and
// trying again would not help.
var ErrRefused = errors.New("refused")

// Jobs builds what an agent needs for a run: the document it runs (stored
// at its start), the environment's variables (with its application's base URL as
// baseUrl unless the environment sets one) and the decrypted secrets the
// document refers to, no others.
type Jobs struct {
	Source  JobSource
	Secrets Opener // nil: a hub without a secret key; runs needing a secret are refused
}

// Build builds the job of a run. A protected environment's rule is
// checked again here, with the starter's role now and the status of the
// version the run executes (ProtectedRefusal), and so is the rule of its
// data (ProtectedDataRefusal: its data set and pool must still be
// protected): when one no longer holds, no secret is decrypted, no pool
// record is taken, and the error (ErrRefused) ends the run.
func (j Jobs) Build(ctx context.Context, run store.Run) (protocol.Job, error) {
	v, err := j.Source.TestVersion(ctx, run.TestID, run.Version)
	if err != nil {
		return protocol.Job{}, fmt.Errorf("test version: %w", err)
	}
	// The document stored when the run was started (components expanded),
	// not whatever the test holds now.
	detail, err := j.Source.RunDetail(ctx, run.ID)
	if err != nil {
		return protocol.Job{}, fmt.Errorf("run document: %w", err)
	}
	var doc protocol.Document
	if err := json.Unmarshal(detail.Document, &doc); err != nil {
		return protocol.Job{}, fmt.Errorf("%w: the stored test document is unreadable: %v", ErrRefused, err)
	}
	job := protocol.Job{RunID: run.ID, TestID: run.TestID, Version: run.Version, Document: doc,
		Screenshots: run.Screenshots, Headed: run.Headed, Device: run.Device, Trace: run.Trace, Retries: run.Retries, Variables: map[string]string{}, Secrets: map[string]string{}}
	if detail.Rows != nil {
		if err := json.Unmarshal(detail.Rows, &job.Rows); err != nil {
			return protocol.Job{}, fmt.Errorf("%w: the run's data rows are unreadable: %v", ErrRefused, err)
		}
	}
	var env store.Environment
	if run.EnvironmentID != "" {
		if env, err = j.environment(ctx, run, v.Status, doc, detail, &job); err != nil {
			return protocol.Job{}, err
		}
	}
	// A pool record's values go over the environment's variables.
	if b := doc.Data; b != nil && b.Pool != "" {
		take := j.Source.TakePoolRecord
		if env.Protected {
			take = j.Source.TakeProtectedPoolRecord
		}
		rec, err := take(ctx, run.ProjectID, b.Pool, run.ID, b.Mode)
		var unprotected *store.PoolUnprotectedError
		switch {
		case errors.As(err, &unprotected):
			return protocol.Job{}, fmt.Errorf("%w: %s", ErrRefused, ProtectedDataRefusal(env, "data pool", unprotected.Name))
		case errors.Is(err, store.ErrPoolEmpty):
			return protocol.Job{}, fmt.Errorf("%w: %v", ErrRefused, err)
		case errors.Is(err, store.ErrNotFound):
			return protocol.Job{}, fmt.Errorf("%w: the test's data pool %s no longer exists", ErrRefused, b.Pool)
		case err != nil:
			return protocol.Job{}, fmt.Errorf("data pool: %w", err)
		}
		mode := b.Mode
		if mode == "" {
			mode = store.PoolLease
		}
		note, _ := json.Marshal(map[string]any{"id": b.Pool, "mode": mode, "record": rec.Index, "values": rec.Values})
		if err := j.Source.SetRunPool(ctx, run.ID, note); err != nil {
			return protocol.Job{}, fmt.Errorf("data pool: %w", err)
		}
		for k, v := range rec.Values {
			job.Variables[k] = v
		}
	}
	return job, nil
}

// environment adds the environment's variables and the secrets the
// document uses to job, after the protected environment's rules (its
// starter and test, then its data set). It returns the environment.
func (j Jobs) environment(ctx context.Context, run store.Run, status string, doc protocol.Document, detail store.RunDetail, job *protocol.Job) (store.Environment, error) {
	env, err := j.Source.Environment(ctx, run.EnvironmentID)
	if err != nil {
		return env, fmt.Errorf("environment: %w", err)
	}
	if env.Protected {
		_, role, err := j.Source.ProjectRole(ctx, env.ProjectID, run.UserID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return env, fmt.Errorf("the starter's role: %w", err)
		}
		if why := ProtectedRefusal(env, role, status, "its starter's"); why != "" {
			return env, fmt.Errorf("%w: %s", ErrRefused, why)
		}
		if err := j.protectedDataSet(ctx, env, run, detail); err != nil {
			return env, err
		}
	}
	used := SecretRefs(doc)
	vars, secrets, err := j.EnvironmentValues(ctx, env, func(name string) bool { return used[name] })
	if err != nil {
		return env, err
	}
	job.Variables, job.Secrets = vars, secrets
	return env, nil
}

// EnvironmentValues reads an environment's variables (with its
// application's base URL as baseUrl unless the environment sets one) and
// decrypts the secrets want names.
func (j Jobs) EnvironmentValues(ctx context.Context, env store.Environment, want func(name string) bool) (vars, secrets map[string]string, err error) {
	vars, secrets = map[string]string{}, map[string]string{}
	for k, val := range env.Variables {
		vars[k] = val
	}
	if _, set := vars["baseUrl"]; !set && env.ApplicationID != "" {
		app, err := j.Source.Application(ctx, env.ApplicationID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, nil, fmt.Errorf("application: %w", err)
		}
		if err == nil {
			vars["baseUrl"] = app.BaseURL
		}
	}
	rows, err := j.Source.EnvironmentSecrets(ctx, env.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("secrets: %w", err)
	}
	for _, row := range rows {
		if !want(row.Name) {
			continue
		}
		if j.Secrets == nil {
			return nil, nil, fmt.Errorf("%w: no secret key is loaded", ErrRefused)
		}
		plain, err := j.Secrets.Open(row.Ciphertext, row.Nonce, secretbox.SecretAAD(env.ID, row.Name))
		if err != nil {
			return nil, nil, fmt.Errorf("%w: secret %s cannot be decrypted (was the secret key changed?)", ErrRefused, row.Name)
		}
		secrets[row.Name] = string(plain)
	}
	return vars, secrets, nil
}

var secretRef = regexp.MustCompile(`\$\{secrets\.([A-Za-z_][A-Za-z0-9_]*)\}`)

// SecretRefs names the secrets a document refers to anywhere.
func SecretRefs(d protocol.Document) map[string]bool {
	data, _ := json.Marshal(d)
	out := map[string]bool{}
	for _, m := range secretRef.FindAllSubmatch(data, -1) {
		out[string(m[1])] = true
	}
	return out
}

// ProtectedRefusal says why a protected environment refuses a run, or ""
// when access.MayUseProtected holds (or env is not protected). Protected
// environments give their secrets only to runs of Ready tests (the content
// a Test Manager reviewed and froze) started by a Test Manager or Admin,
// since anyone who may run tests could otherwise send ${secrets.X} where
// they can read it. who is "your" (the caller, at start) or "its
// starter's" (at dispatch).
func ProtectedRefusal(env store.Environment, role access.Role, status string, who string) string {
	if !env.Protected || access.MayUseProtected(role, status) {
		return ""
	}
	why := "the test is " + status + ", not Ready"
	switch {
	case status != access.ReadyStatus:
	case role == "":
		why = who + " account is no longer a member of the project"
	default:
		why = who + " role in the project is " + string(role)
	}
	return fmt.Sprintf("environment %s is protected: its secrets go only to runs of Ready tests started by a Test Manager or Admin, and %s",
		strconv.Quote(env.Name), why)
}
