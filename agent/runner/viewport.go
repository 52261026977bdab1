package runner

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/go-rod/rod/lib/proto"
	"github.com/testautomation/ta/protocol"
)

// emulation is what a run's pages emulate: the job's device, and the
// viewport a setViewport step set. Pages opened later get it too (tabs.go,
// from the event reader: hence the lock).
type emulation struct {
	mu      sync.Mutex
	device  *protocol.Device
	metrics *proto.EmulationSetDeviceMetricsOverride
}

// applyDevice makes the first page emulate the job's device, before the
// first step.
func (r *run) applyDevice(ctx context.Context) error {
	if r.job.Device == "" {
		return nil
	}
	d, ok := protocol.DeviceByName(r.job.Device)
	if !ok {
		return fmt.Errorf("unknown device %q: this agent knows %s", r.job.Device, strings.Join(protocol.DeviceNames(), ", "))
	}
	r.emu.mu.Lock()
	r.emu.device = &d
	r.emu.metrics = &proto.EmulationSetDeviceMetricsOverride{Width: d.Width, Height: d.Height,
		DeviceScaleFactor: d.DeviceScaleFactor, Mobile: d.IsMobile, ScreenWidth: &d.Width, ScreenHeight: &d.Height}
	r.emu.mu.Unlock()
	for _, req := range r.emulation() {
		if err := req.Call(r.sess(ctx)); err != nil {
			return fmt.Errorf("emulating the device %s: %s: %w", d.Name, req.ProtoReq(), plainCDP(err))
		}
	}
	return nil
}

// emulation lists the requests that make a page emulate the run's device
// and viewport.
func (r *run) emulation() []setupRequest {
	r.emu.mu.Lock()
	defer r.emu.mu.Unlock()
	var reqs []setupRequest
	if m := r.emu.metrics; m != nil {
		reqs = append(reqs, *m)
	}
	if d := r.emu.device; d != nil {
		touch := 0
		if d.HasTouch {
			touch = 5
		}
		reqs = append(reqs, proto.EmulationSetTouchEmulationEnabled{Enabled: d.HasTouch, MaxTouchPoints: &touch},
			proto.EmulationSetUserAgentOverride{UserAgent: d.UserAgent})
	}
	return reqs
}

// viewport returns the page's emulated viewport, nil when none is.
func (r *run) viewport() *proto.EmulationSetDeviceMetricsOverride {
	r.emu.mu.Lock()
	defer r.emu.mu.Unlock()
	if r.emu.metrics == nil {
		return nil
	}
	m := *r.emu.metrics
	return &m
}

// setViewport resizes the viewport of the page in use, and of pages opened
// later; a device's scale and mobile mode stay.
func setViewport(s *stepRun, ctx context.Context, st protocol.Step) error {
	if st.Width < 1 || st.Width > 10000 || st.Height < 1 || st.Height > 10000 {
		return permanent("setViewport needs a width and a height from 1 to 10000, not %d×%d", st.Width, st.Height)
	}
	r := s.r
	r.flush()
	m := proto.EmulationSetDeviceMetricsOverride{Width: st.Width, Height: st.Height}
	if old := r.viewport(); old != nil {
		// A device's screen becomes the new size: a mobile page's
		// width=device-width follows it.
		m.DeviceScaleFactor, m.Mobile = old.DeviceScaleFactor, old.Mobile
		if old.ScreenWidth != nil {
			m.ScreenWidth, m.ScreenHeight = &m.Width, &m.Height
		}
	}
	if err := m.Call(r.sess(ctx)); err != nil {
		return fmt.Errorf("setting the viewport: %w", plainCDP(err))
	}
	r.emu.mu.Lock()
	r.emu.metrics = &m
	r.emu.mu.Unlock()
	return nil
}

// goBack and goForward move through the page's history and wait for the
// page to load, as navigate does.
func goBack(s *stepRun, ctx context.Context, st protocol.Step) error { return s.history(ctx, -1) }

func goForward(s *stepRun, ctx context.Context, st protocol.Step) error { return s.history(ctx, 1) }

func (s *stepRun) history(ctx context.Context, delta int) error {
	r := s.r
	h, err := proto.PageGetNavigationHistory{}.Call(r.sess(ctx))
	if err != nil {
		return err
	}
	to := h.CurrentIndex + delta
	if to < 0 || to >= len(h.Entries) {
		return permanent("there is no page to go %s to in this tab's history", map[int]string{-1: "back", 1: "forward"}[delta])
	}
	s.use("url", h.Entries[to].URL)
	if err := (proto.PageNavigateToHistoryEntry{EntryID: h.Entries[to].ID}).Call(r.sess(ctx)); err != nil {
		return fmt.Errorf("going %s: %w", map[int]string{-1: "back", 1: "forward"}[delta], plainCDP(err))
	}
	return s.poll(ctx, "for the page to load", func(ctx context.Context) error {
		h, err := proto.PageGetNavigationHistory{}.Call(r.sess(ctx))
		if err != nil {
			return err
		}
		if h.CurrentIndex != to {
			return fmt.Errorf("the page did not go %s yet", map[int]string{-1: "back", 1: "forward"}[delta])
		}
		_, err = evalValue(ctx, r.tab.sess, loadJS)
		return err
	})
}

// reload reloads the page and waits for the new document to load.
func reload(s *stepRun, ctx context.Context, st protocol.Step) error {
	r := s.r
	before, err := evalValue(ctx, r.tab.sess, "performance.timeOrigin")
	if err != nil {
		return err
	}
	if err := (proto.PageReload{}).Call(r.sess(ctx)); err != nil {
		return fmt.Errorf("reloading: %w", plainCDP(err))
	}
	return s.poll(ctx, "for the page to load", func(ctx context.Context) error {
		v, err := evalValue(ctx, r.tab.sess, "performance.timeOrigin")
		if err != nil {
			return err
		}
		if v.Num() == before.Num() {
			return fmt.Errorf("the page did not reload yet")
		}
		_, err = evalValue(ctx, r.tab.sess, loadJS)
		return err
	})
}
