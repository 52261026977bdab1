package author

import (
	"bytes"
	"image"
	"image/jpeg"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/agent/client"
	"github.com/testautomation/ta/protocol"
)

// lastFrame keeps the last frame a viewer got; it takes a while over a
// frame with a file choice, as a sink over a busy connection may.
type lastFrame struct {
	mu   sync.Mutex
	last protocol.ViewFrame
}

func (l *lastFrame) Frame(_ string, f protocol.ViewFrame) {
	if f.FileChooser != nil {
		time.Sleep(100 * time.Microsecond)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last = f
}

// TestViewFramesKeepTheirOrder: a screencast frame made while a file
// choice was pending must not reach the viewer after the frame saying the
// choice was answered, or the view shows a choice the page no longer
// waits for until the page changes (TestViewChoosesFiles failed so in
// CI now and then).
func TestViewFramesKeepTheirOrder(t *testing.T) {
	var pic bytes.Buffer
	if err := jpeg.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 4, 4)), nil); err != nil {
		t.Fatal(err)
	}
	frame := &proto.PageScreencastFrame{Data: pic.Bytes(), Metadata: &proto.PageScreencastFrameMetadata{DeviceWidth: 4, DeviceHeight: 4}}
	for i := range 400 {
		m := &Manager{}
		pg := &pageState{}
		viewer := &lastFrame{}
		c := &cast{viewers: map[string]client.FrameSink{"s": viewer}}
		m.views.of = map[*pageState]*cast{pg: c}
		m.showChooser(pg, c, &pendingChooser{shown: &protocol.ViewFileChooser{}})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.sendFrame(pg, c, frame)
		}()
		time.Sleep(time.Duration(i%8) * 25 * time.Microsecond) // the frame on its way, or not yet
		m.showChooser(pg, c, nil)                              // the choice answered
		wg.Wait()
		viewer.mu.Lock()
		shown := viewer.last.FileChooser
		viewer.mu.Unlock()
		if shown != nil {
			t.Fatalf("round %d: the viewer's last frame still shows the answered file choice", i)
		}
	}
}
