package language

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// Generator drafts steps: the provider, and a per-project rate limit.
type Generator struct {
	provider Provider
	limiter  *Limiter
	model    string
}

// New returns a Generator for cfg, or nil when no model is configured.
func New(cfg Config, log *slog.Logger) *Generator {
	if !cfg.Configured() {
		return nil
	}
	return NewWith(NewProvider(cfg, log), cfg.Model, cfg.PerMinute)
}

// NewWith returns a Generator over any provider.
func NewWith(p Provider, model string, perMinute int) *Generator {
	return &Generator{provider: p, limiter: NewLimiter(perMinute), model: model}
}

// Model is the configured model's name.
func (g *Generator) Model() string { return g.model }

// RateLimited is the answer when a project asked for too many drafts.
type RateLimited struct{ Wait time.Duration }

func (e *RateLimited) Error() string {
	return fmt.Sprintf("this project asked for too many drafts: try again in %d s", int(e.Wait.Seconds())+1)
}

// Result is a draft with the model that wrote it.
type Result struct {
	Draft
	Model string `json:"model"`
}

// Generate asks the model for steps for in and checks them. Errors are
// *RateLimited, *ProviderError or *ErrNotJSON.
func (g *Generator) Generate(ctx context.Context, projectID string, in Input) (Result, error) {
	if ok, wait := g.limiter.Allow(projectID); !ok {
		return Result{}, &RateLimited{Wait: wait}
	}
	ans, err := g.provider.Complete(ctx, Request{Messages: Messages(in), Schema: Schema()})
	if err != nil {
		return Result{}, err
	}
	d, err := Check(ans.Text, in.Steps)
	if err != nil {
		return Result{}, err
	}
	model := ans.Model
	if model == "" {
		model = g.model
	}
	return Result{Draft: d, Model: model}, nil
}
