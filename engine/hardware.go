package engine

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Hardware is one GPU's public datasheet figures. All figures are per GPU;
// tensor parallelism multiplies the GPU count, not these numbers.
type Hardware struct {
	Name string `json:"name"`
	// BF16TFLOPS is peak dense (not 2:4 sparse) BF16 tensor-core throughput.
	BF16TFLOPS float64 `json:"bf16_tflops"`
	// FP8TFLOPS is peak dense FP8 tensor-core throughput; 0 when the chip
	// has no FP8 tensor cores (FP8 weights then run as W8A16 at BF16 speed).
	FP8TFLOPS float64 `json:"fp8_tflops,omitempty"`
	// MemBandwidthGBs is HBM/GDDR bandwidth in GB/s (10^9 bytes).
	MemBandwidthGBs float64 `json:"mem_bandwidth_gbs"`
	// MemoryGiB is device memory as the driver reports it (GiB, 2^30 bytes).
	MemoryGiB float64 `json:"memory_gib"`
	// Interconnect names the GPU-to-GPU link used by tensor parallelism.
	Interconnect string `json:"interconnect"`
	// InterconnectGBs is the link's bandwidth per direction in GB/s.
	InterconnectGBs float64 `json:"interconnect_gbs"`
}

// hardwareProfiles are datasheet figures (dense, no sparsity).
// H100/H200: H100 Tensor Core GPU datasheet and H200 product brief; A100:
// A100 datasheet (80GB SXM); L40S, L4: their product datasheets; A10G: AWS
// G5 documentation (a cut-down A10). Memory is nvidia-smi's total in MiB ÷ 1024
// (H100 81,559 MiB, H200 143,771, A100 81,920, L40S 46,068, L4 and A10G about 23,030).
// MI300X: AMD Instinct MI300X data sheet (dense BF16 1,307.4 TFLOP/s, FP8
// 2,614.9, 5.3 TB/s HBM3, 192 GB of which ROCm reports 191.7 GiB, seven
// Infinity Fabric links of 64 GB/s each way); the same figures the fidelity
// set's AMD runs are replayed with.
var hardwareProfiles = []Hardware{
	{Name: "h100-sxm", BF16TFLOPS: 989, FP8TFLOPS: 1979, MemBandwidthGBs: 3350, MemoryGiB: 79.6, Interconnect: "nvlink4", InterconnectGBs: 450},
	{Name: "h100-pcie", BF16TFLOPS: 756, FP8TFLOPS: 1513, MemBandwidthGBs: 2000, MemoryGiB: 79.6, Interconnect: "pcie5", InterconnectGBs: 64},
	{Name: "h200", BF16TFLOPS: 989, FP8TFLOPS: 1979, MemBandwidthGBs: 4800, MemoryGiB: 140.4, Interconnect: "nvlink4", InterconnectGBs: 450},
	{Name: "a100-80g", BF16TFLOPS: 312, MemBandwidthGBs: 2039, MemoryGiB: 80.0, Interconnect: "nvlink3", InterconnectGBs: 300},
	{Name: "l40s", BF16TFLOPS: 362, FP8TFLOPS: 733, MemBandwidthGBs: 864, MemoryGiB: 45.0, Interconnect: "pcie4", InterconnectGBs: 32},
	{Name: "l4", BF16TFLOPS: 121, FP8TFLOPS: 242, MemBandwidthGBs: 300, MemoryGiB: 22.5, Interconnect: "pcie4", InterconnectGBs: 32},
	{Name: "a10g", BF16TFLOPS: 70, MemBandwidthGBs: 600, MemoryGiB: 22.5, Interconnect: "pcie4", InterconnectGBs: 32},
	{Name: "mi300x", BF16TFLOPS: 1307.4, FP8TFLOPS: 2614.9, MemBandwidthGBs: 5300, MemoryGiB: 191.7, Interconnect: "infinity-fabric", InterconnectGBs: 448},
}

// HardwareProfiles returns the built-in GPUs in a stable order.
func HardwareProfiles() []Hardware { return slices.Clone(hardwareProfiles) }

// HardwareNames returns the built-in GPU names.
func HardwareNames() []string {
	names := make([]string, len(hardwareProfiles))
	for i, h := range hardwareProfiles {
		names[i] = h.Name
	}
	return names
}

// LookupHardware finds a built-in GPU by name (case-insensitive).
func LookupHardware(name string) (Hardware, error) {
	for _, h := range hardwareProfiles {
		if strings.EqualFold(h.Name, name) {
			return h, nil
		}
	}
	return Hardware{}, fmt.Errorf("unknown hardware %q (valid: %s)", name, strings.Join(HardwareNames(), ", "))
}

// LoadHardwareConfig reads a GPU description in the JSON shape of Hardware,
// e.g. {"name":"my-gpu","bf16_tflops":400,"mem_bandwidth_gbs":2000,"memory_gib":48}.
func LoadHardwareConfig(r io.Reader) (Hardware, error) {
	var h Hardware
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return Hardware{}, fmt.Errorf("hardware config: %w", err)
	}
	if h.Name == "" {
		h.Name = "custom-gpu"
	}
	if err := h.Validate(); err != nil {
		return Hardware{}, fmt.Errorf("hardware config: %w", err)
	}
	return h, nil
}

// Validate reports figures that are missing or outside what any GPU has.
func (h Hardware) Validate() error {
	checks := []struct {
		name     string
		v        float64
		min, max float64
	}{
		{"bf16_tflops", h.BF16TFLOPS, 1, 100000},
		{"mem_bandwidth_gbs", h.MemBandwidthGBs, 10, 1000000},
		{"memory_gib", h.MemoryGiB, 1, 100000},
	}
	for _, c := range checks {
		if !(c.v >= c.min && c.v <= c.max) {
			return fmt.Errorf("%s: %s = %g, want %g..%g", h.Name, c.name, c.v, c.min, c.max)
		}
	}
	if h.FP8TFLOPS < 0 || h.InterconnectGBs < 0 {
		return fmt.Errorf("%s: fp8_tflops and interconnect_gbs must not be negative", h.Name)
	}
	return nil
}
