package objtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// weedBinary is where the SeaweedFS binary is: $TA_WEED, or the one
// .ci/run builds into the user's cache.
func weedBinary() string {
	if p := os.Getenv("TA_WEED"); p != "" {
		return p
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "ta-tools", "weed-20261109", "weed")
}

// Weed starts a real S3-compatible server, SeaweedFS (`weed server -s3`),
// on free loopback ports in a folder of the test's, with one bucket and
// one access key, and stops it when the test ends. Without the binary the
// test is skipped, saying how to get it, except under CI=true, where it
// fails: CI must run it.
func Weed(t testing.TB) Bucket {
	t.Helper()
	bin := weedBinary()
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("no SeaweedFS binary at %s (set TA_WEED, or build it: go install github.com/seaweedfs/seaweedfs/weed@latest)", bin)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir := t.TempDir()
	b := Bucket{Bucket: "ta-test", AccessKey: "ta-access", SecretKey: "ta-secret-key", Region: "us-east-1"}
	iam := fmt.Sprintf(`{"identities":[{"name":"ta","credentials":[{"accessKey":%q,"secretKey":%q}],"actions":["Admin","Read","Write","List","Tagging"]}]}`,
		b.AccessKey, b.SecretKey)
	if err := os.WriteFile(filepath.Join(dir, "s3.json"), []byte(iam), 0o600); err != nil {
		t.Fatal(err)
	}
	p := freePorts(t, 8)
	args := []string{"server", "-dir=" + dir, "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
		"-master.port=" + p[0], "-master.port.grpc=" + p[1], "-volume.port=" + p[2], "-volume.port.grpc=" + p[3],
		"-filer", "-filer.port=" + p[4], "-filer.port.grpc=" + p[5],
		"-s3", "-s3.port=" + p[6], "-s3.port.grpc=" + p[7], "-s3.port.iceberg=0", "-s3.port.lance=0",
		"-s3.config=" + filepath.Join(dir, "s3.json"),
		// Its sockets in the test's folder, not /tmp, so they go with it.
		"-filer.localSocket=" + filepath.Join(dir, "filer.sock"), "-s3.localSocket=" + filepath.Join(dir, "s3.sock"), "-master.volumeSizeLimitMB=64", "-volume.max=20"}
	logPath := filepath.Join(dir, "weed.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); logFile.Close(); close(exited) }()
	t.Cleanup(func() { // before the folder goes (cleanups run last first)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		// weed server puts its gRPC sockets in /tmp whatever it is told.
		for i, name := range []string{"master", "volume", "filer", "s3"} {
			_ = os.Remove(fmt.Sprintf("/tmp/seaweedfs-%s-grpc-%s.sock", name, p[2*i+1]))
		}
	})
	b.Endpoint = "http://127.0.0.1:" + p[6]
	c, err := minio.New("127.0.0.1:"+p[6], &minio.Options{Creds: credentials.NewStaticV4(b.AccessKey, b.SecretKey, ""), Region: b.Region})
	if err != nil {
		t.Fatal(err)
	}
	// The S3 gateway answers once master, volume and filer are up; a
	// bucket can be made once the filer has a volume to write to.
	deadline := time.Now().Add(90 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = c.MakeBucket(ctx, b.Bucket, minio.MakeBucketOptions{Region: b.Region})
		cancel()
		if err == nil || minio.ToErrorResponse(err).Code == "BucketAlreadyOwnedByYou" {
			break
		}
		select {
		case <-exited:
			t.Fatalf("weed server ended: %s", tail(logPath))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("SeaweedFS's S3 did not answer in 90s: %v\n%s", err, tail(logPath))
		}
		time.Sleep(300 * time.Millisecond)
	}
	return b
}

// freePorts finds n loopback ports free at the moment.
func freePorts(t testing.TB, n int) []string {
	t.Helper()
	var ports []string
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

func tail(path string) string {
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	return strings.Join(lines[max(0, len(lines)-20):], "\n")
}
