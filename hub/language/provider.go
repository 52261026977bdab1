// Package language drafts test steps from plain language through any
// OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI, Ollama,
// vLLM, llama.cpp's server). It builds the prompt, asks the provider for a
// JSON answer shaped by a schema derived from the step registry, and checks
// every proposed step with the same validator as saving a test.
package language

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// Config is the provider's configuration: HUB_LLM_BASE_URL, HUB_LLM_API_KEY
// and HUB_LLM_MODEL. Without a model the feature is off.
type Config struct {
	BaseURL string        // e.g. https://api.openai.com/v1 or http://localhost:11434/v1
	APIKey  string        // may be empty for local servers
	Model   string        // e.g. gpt-4o-mini, llama3.1
	Timeout time.Duration // per attempt; DefaultTimeout when zero
	// PerMinute is how many drafts one project may ask for per minute;
	// DefaultPerMinute when zero.
	PerMinute int
}

// Defaults.
const (
	DefaultTimeout   = 60 * time.Second
	DefaultPerMinute = 20
)

// Configured tells whether a model is set.
func (c Config) Configured() bool { return strings.TrimSpace(c.Model) != "" }

// Message is one chat message.
type Message struct {
	Role    string // system, user, assistant
	Content string
}

// Request is what is sent to the provider.
type Request struct {
	Messages []Message
	Schema   map[string]any // JSON schema of the answer; nil for plain JSON
}

// Answer is the provider's reply.
type Answer struct {
	Text             string
	Model            string
	PromptTokens     int64
	CompletionTokens int64
}

// Provider answers chat requests.
type Provider interface {
	Complete(ctx context.Context, req Request) (Answer, error)
}

// ProviderError is a failure of the provider: unreachable, too slow, a
// refusal (401, 429, 5xx) or an answer that is not a chat completion. Its
// message is safe to show: it never holds the API key.
type ProviderError struct {
	Status  int // the provider's HTTP status; 0 when there was none
	Message string
}

func (e *ProviderError) Error() string { return e.Message }

// openAI is a Provider speaking the chat-completions API.
type openAI struct {
	client openai.Client
	model  string
	log    *slog.Logger
	// plain is set once the provider refused a json_schema response format;
	// later requests ask for plain JSON.
	plain atomic.Bool
}

// NewProvider returns the chat-completions provider the configuration
// names. Each attempt is bounded by the timeout; a 429 or 5xx is retried
// once, after the provider's Retry-After when it sends one.
func NewProvider(cfg Config, log *slog.Logger) Provider {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if log == nil {
		log = slog.Default()
	}
	opts := []option.RequestOption{
		option.WithMaxRetries(1),
		option.WithRequestTimeout(cfg.Timeout),
		option.WithAPIKey(cfg.APIKey),
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(strings.TrimRight(cfg.BaseURL, "/")+"/"))
	}
	return &openAI{client: openai.NewClient(opts...), model: cfg.Model, log: log}
}

func (p *openAI) Complete(ctx context.Context, req Request) (Answer, error) {
	schema := req.Schema
	if p.plain.Load() {
		schema = nil
	}
	ans, err := p.complete(ctx, req.Messages, schema)
	var pe *ProviderError
	if schema != nil && errors.As(err, &pe) && pe.Status == http.StatusBadRequest {
		// Many local servers do not take json_schema: ask for plain JSON.
		p.plain.Store(true)
		p.log.Info("language model refused a JSON schema; asking for plain JSON from now on", "model", p.model)
		ans, err = p.complete(ctx, req.Messages, nil)
	}
	return ans, err
}

func (p *openAI) complete(ctx context.Context, msgs []Message, schema map[string]any) (Answer, error) {
	params := openai.ChatCompletionNewParams{Model: p.model, Temperature: openai.Float(0)}
	for _, m := range msgs {
		switch m.Role {
		case "system":
			params.Messages = append(params.Messages, openai.SystemMessage(m.Content))
		case "assistant":
			params.Messages = append(params.Messages, openai.AssistantMessage(m.Content))
		default:
			params.Messages = append(params.Messages, openai.UserMessage(m.Content))
		}
	}
	if schema != nil {
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name: "test_steps", Description: openai.String("UI test steps"), Schema: schema,
			}},
		}
	} else {
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONObject: &shared.ResponseFormatJSONObjectParam{},
		}
	}
	start := time.Now()
	res, err := p.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return Answer{}, providerError(ctx, err)
	}
	if len(res.Choices) == 0 {
		return Answer{}, &ProviderError{Message: "the language model answered without a choice"}
	}
	a := Answer{Text: res.Choices[0].Message.Content, Model: res.Model,
		PromptTokens: res.Usage.PromptTokens, CompletionTokens: res.Usage.CompletionTokens}
	if a.Model == "" {
		a.Model = p.model
	}
	p.log.Info("language model answered", "model", a.Model, "prompt_tokens", a.PromptTokens,
		"completion_tokens", a.CompletionTokens, "ms", time.Since(start).Milliseconds())
	return a, nil
}

// providerError turns the client's error into a ProviderError whose message
// says what went wrong without the request's headers.
func providerError(ctx context.Context, err error) error {
	var api *openai.Error
	if errors.As(err, &api) {
		msg := providerMessage(api.RawJSON())
		switch api.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			return &ProviderError{Status: api.StatusCode, Message: fmt.Sprintf("the language model refused the API key (HTTP %d)%s: check HUB_LLM_API_KEY", api.StatusCode, msg)}
		case http.StatusTooManyRequests:
			return &ProviderError{Status: api.StatusCode, Message: "the language model is rate limiting this hub (HTTP 429)" + msg + ": try again later"}
		case http.StatusNotFound:
			return &ProviderError{Status: api.StatusCode, Message: "the language model's address or model was not found (HTTP 404)" + msg + ": check HUB_LLM_BASE_URL and HUB_LLM_MODEL"}
		}
		return &ProviderError{Status: api.StatusCode, Message: fmt.Sprintf("the language model failed (HTTP %d)%s", api.StatusCode, msg)}
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &ProviderError{Message: "the language model did not answer in time"}
	}
	if errors.Is(err, context.Canceled) {
		return &ProviderError{Message: "the request was cancelled"}
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return &ProviderError{Message: "the language model's answer is not a chat completion"}
	}
	return &ProviderError{Message: "the language model could not be reached: " + clip(scrub(err.Error()), 200)}
}

// providerMessage reads the provider's own error message, if it sent one.
func providerMessage(raw string) string {
	var body struct {
		Message string `json:"message"`
		Error   any    `json:"error"`
	}
	if json.Unmarshal([]byte(raw), &body) != nil {
		return ""
	}
	msg := body.Message
	if e, ok := body.Error.(map[string]any); ok {
		if m, ok := e["message"].(string); ok {
			msg = m
		}
	} else if s, ok := body.Error.(string); ok && msg == "" {
		msg = s
	}
	if msg = strings.TrimSpace(msg); msg == "" {
		return ""
	}
	return ": " + clip(scrub(msg), 200)
}

// scrub removes anything that looks like a bearer key from a message.
func scrub(s string) string {
	fields := strings.Fields(s)
	for i, f := range fields {
		if len(f) >= 20 && (strings.HasPrefix(f, "sk-") || strings.HasPrefix(strings.ToLower(f), "bearer")) {
			fields[i] = "[redacted]"
		}
	}
	return strings.Join(fields, " ")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
