package protocol

import (
	"encoding/json"
	"testing"
)

// bigDocument is a valid document of MaxSteps steps.
func bigDocument() []byte {
	d := Document{DSL: 2, Name: "big", Variables: map[string]string{"user": "alice"}}
	for len(d.Steps) < MaxSteps {
		d.Steps = append(d.Steps, everyStep()...)
	}
	d.Steps = d.Steps[:MaxSteps]
	for i := range d.Steps {
		d.Steps[i].ID = "s" + itoa(i+1)
	}
	data, _ := json.Marshal(d)
	return data
}

func BenchmarkParse(b *testing.B) {
	data := bigDocument()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, is := Parse(data); len(is) > 0 {
			b.Fatal(is)
		}
	}
}

func BenchmarkRenderPlaywright(b *testing.B) {
	doc, _, _ := Parse(bigDocument())
	for b.Loop() {
		RenderPlaywright(doc)
	}
}
