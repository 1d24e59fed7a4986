package openaiapi

// metricsSource labels this surface's requests on the engine (see
// live.WithSource), so the serving metrics tell API traffic from the labs'
// on a shared engine.
const metricsSource = "api"
