package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/benchmark"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/engine/upstream"
)

// runBench runs the sim workload as real streaming HTTP requests against
// any OpenAI-compatible server and prints the same result.
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var wf workloadFlags
	wf.register(fs)
	baseURL := fs.String("base-url", "", "API root of the server, e.g. http://127.0.0.1:8000/v1 (required)")
	model := fs.String("model", "", "model name to request (default: the first of GET /models)")
	endpoint := fs.String("endpoint", "completions", "completions or chat (vLLM's /v1/completions and /v1/chat/completions spellings work too)")
	apiKey := fs.String("api-key", os.Getenv("OPENAI_API_KEY"), "bearer token (default $OPENAI_API_KEY)")
	var cf compareFlags
	cf.register(fs)
	var df datasetFlags
	df.register(fs, &wf)
	return exitCode(stderr, "bench", func() error {
		if help, err := parseFlags(fs, args, stdout); help || err != nil {
			return err
		}
		if err := checkBaseURL(*baseURL); err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(*endpoint, "chat/completions"):
			*endpoint = "chat"
		case strings.HasSuffix(*endpoint, "/completions"):
			*endpoint = "completions"
		}
		if *endpoint != "completions" && *endpoint != "chat" {
			return badf("endpoint %q is not valid: want completions or chat", *endpoint)
		}
		w, err := wf.workload()
		if err != nil {
			return err
		}
		if err := df.check(&w); err != nil {
			return err
		}
		reqs, err := df.requests(w)
		if err != nil {
			return err
		}
		client := &upstream.Client{BaseURL: strings.TrimRight(*baseURL, "/"), APIKey: *apiKey, RunningCounts: true,
			HTTP: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}}}
		name := *model
		if name == "" {
			if name, err = firstModel(ctx, client); err != nil {
				return err
			}
		}
		target := benchmark.HTTPTarget{Client: client, Model: name, Chat: *endpoint == "chat", Count: textmodel.Count}
		outs, dur := benchmark.RunHTTP(ctx, target, reqs, w.MaxConcurrency)
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted: %w", ctx.Err())
		}
		if !wf.json {
			fmt.Fprintf(stdout, "wall clock: %s at %s (/%s)\n", name, client.BaseURL, *endpoint)
		}
		r := benchmark.ComputeGoodput(outs, dur, w.Percentiles, w.Goodput)
		short, written := writtenLengths(reqs, outs)
		notes := stdout
		if wf.json {
			notes = stderr // keep stdout one JSON document
		}
		if err := df.saveResult(stdout, time.Now(), target.Chat, name, w, r, outs, wf.json); err != nil {
			return err
		}
		if r.Completed == 0 {
			_ = report(stdout, w, r, wf.json)
			return fmt.Errorf("every request failed; first error: %s", r.FirstError)
		}
		if !cf.on {
			err := report(stdout, w, r, wf.json)
			noteShort(notes, short, r.Completed, false)
			return err
		}
		cfg, err := cf.config(name)
		if err != nil {
			return err
		}
		sim, err := simulateSame(cfg, w, written, df.name == "random" && short == 0)
		if err != nil {
			return err
		}
		if !wf.json {
			if err := report(stdout, w, r, false); err != nil {
				return err
			}
		}
		err = writeComparison(stdout, cfg, w, r, sim, wf.json)
		noteShort(notes, short, r.Completed, true)
		return err
	}())
}

// simulateSame runs the requests the server got on the bundled engine's
// virtual clock: a random dataset the server answered in full is drawn
// again lazily (flat memory); otherwise the requests are run as given,
// with the lengths the server really wrote.
func simulateSame(cfg engine.Config, w benchmark.Workload, reqs []benchmark.Request, random bool) (benchmark.Result, error) {
	if random {
		d, err := dataset(w)
		if err != nil {
			return benchmark.Result{}, err
		}
		sim, err := benchmark.Simulate(cfg, d, w.MaxConcurrency, w.Percentiles)
		if err != nil {
			return sim, badInput{fmt.Errorf("--compare-sim: %w", err)}
		}
		return sim, nil
	}
	outs, dur, err := benchmark.RunSim(cfg, reqs, w.MaxConcurrency)
	if err != nil {
		return benchmark.Result{}, badInput{fmt.Errorf("--compare-sim: %w", err)}
	}
	return benchmark.ComputeGoodput(outs, dur, w.Percentiles, w.Goodput), nil
}

func checkBaseURL(s string) error {
	if s == "" {
		return badf("--base-url is required, e.g. --base-url http://127.0.0.1:8000/v1")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return badf("base URL %q is not valid: want http(s)://host:port/v1", s)
	}
	return nil
}

// firstModel asks the server which model it serves, as a default for
// --model.
func firstModel(ctx context.Context, c *upstream.Client) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+"/models", nil)
	if err != nil {
		return "", fmt.Errorf("list models: %w", err)
	}
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return "", fmt.Errorf("list models (pass --model to skip): %w", err)
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("list models (pass --model to skip): server answered %d", resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list.Data) == 0 {
		return "", fmt.Errorf("list models (pass --model to skip): no model in the answer")
	}
	return list.Data[0].ID, nil
}
