package store

import (
	"context"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"
)

// LanguageExample is a learned example: a request and the steps it became.
type LanguageExample struct {
	ID         string
	ProjectID  string
	Text       string
	Steps      []byte // JSON array of steps
	AuthorID   string
	AuthorName string
	CreatedAt  time.Time
}

const exampleCols = `e.id, e.project_id, e.text, e.steps::text, coalesce(e.author_id, ''), coalesce(u.name, ''), e.created_at`
const exampleFrom = ` FROM language_examples e LEFT JOIN users u ON u.id = e.author_id `

func scanExample(row pgx.Row) (LanguageExample, error) {
	var e LanguageExample
	var steps string
	err := row.Scan(&e.ID, &e.ProjectID, &e.Text, &steps, &e.AuthorID, &e.AuthorName, &e.CreatedAt)
	if isNoRows(err) {
		return LanguageExample{}, ErrNotFound
	}
	e.Steps = []byte(steps)
	return e, err
}

// MaxExamples is how many learned examples a project keeps.
const MaxExamples = 1000

// ErrTooMany refuses a record past its kind's limit.
var ErrTooMany = errTooMany{}

type errTooMany struct{}

func (errTooMany) Error() string { return "too many" }

// AddExample saves a learned example (ErrTooMany past MaxExamples).
func (s *Store) AddExample(ctx context.Context, e LanguageExample) (LanguageExample, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return LanguageExample{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	// One project's examples are added one at a time, so the limit holds.
	if _, err := tx.Exec(ctx, `SELECT 1 FROM projects WHERE id = $1 FOR UPDATE`, e.ProjectID); err != nil {
		return LanguageExample{}, err
	}
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM language_examples WHERE project_id = $1`, e.ProjectID).Scan(&n); err != nil {
		return LanguageExample{}, err
	}
	if n >= MaxExamples {
		return LanguageExample{}, ErrTooMany
	}
	if _, err := tx.Exec(ctx, `INSERT INTO language_examples (id, project_id, text, steps, author_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		e.ID, e.ProjectID, e.Text, string(e.Steps), nullIfEmpty(e.AuthorID), e.CreatedAt); err != nil {
		return LanguageExample{}, err
	}
	if err := tx.Commit(ctx); err != nil {
		return LanguageExample{}, err
	}
	return s.Example(ctx, e.ID)
}

// Example returns one learned example.
func (s *Store) Example(ctx context.Context, id string) (LanguageExample, error) {
	return scanExample(s.pool.QueryRow(ctx, `SELECT `+exampleCols+exampleFrom+`WHERE e.id = $1`, id))
}

// Examples lists a project's learned examples, newest first.
func (s *Store) Examples(ctx context.Context, projectID string) ([]LanguageExample, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+exampleCols+exampleFrom+`WHERE e.project_id = $1 ORDER BY e.created_at DESC, e.id`, projectID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (LanguageExample, error) { return scanExample(r) })
}

// DeleteExample removes a learned example.
func (s *Store) DeleteExample(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM language_examples WHERE id = $1`, id)
	if err == nil && tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return err
}

// SimilarExamples returns up to n of a project's examples sharing the most
// words with text, best first (PostgreSQL full-text rank).
func (s *Store) SimilarExamples(ctx context.Context, projectID, text string, n int) ([]LanguageExample, error) {
	q := orQuery(text)
	if q == "" {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT `+exampleCols+exampleFrom+`
		WHERE e.project_id = $1 AND e.search @@ to_tsquery('simple', $2)
		ORDER BY ts_rank(e.search, to_tsquery('simple', $2)) DESC, e.created_at DESC LIMIT $3`, projectID, q, n)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (LanguageExample, error) { return scanExample(r) })
}

// orQuery turns text into a tsquery matching any of its words: letters
// and digits only, so nothing in it is tsquery syntax.
func orQuery(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if len([]rune(w)) < 2 || len(w) > 60 || seen[w] || stopWords[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == 40 {
			break
		}
	}
	return strings.Join(out, " | ")
}

// stopWords are words too common to make two requests alike.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by do does for from go has have i if in into is it its me my of on or
		our please should so that the then there this to up us we what when where which will with you your`) {
		stopWords[w] = true
	}
}
