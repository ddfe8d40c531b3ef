//! A configuration validated once: `ValidConfig` holds a `SimConfig` whose every field passed
//! `SimConfig::validate` and the geometry it resolved to. The simulators are built from it, so
//! a configuration crosses the binding and is checked once, however many runs it builds.

use super::{from_json, SimConfig};
use crate::error::Result;
use crate::geometry::Geometry;

#[derive(Debug, Clone, PartialEq)]
pub struct ValidConfig {
    config: SimConfig,
    geometry: Geometry,
}

impl ValidConfig {
    /// Validate `config`; the error names the offending field.
    pub fn new(config: SimConfig) -> Result<Self> {
        let geometry = config.validate()?;
        Ok(ValidConfig { config, geometry })
    }

    /// Parse and validate a configuration from JSON text; the error names the field.
    pub fn from_json(text: &str) -> Result<Self> {
        Self::new(from_json(text)?)
    }

    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    /// The geometry the configuration resolved to.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    pub fn into_parts(self) -> (SimConfig, Geometry) {
        (self.config, self.geometry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_the_resolved_geometry_and_rejects_what_validate_rejects() {
        let v = ValidConfig::new(SimConfig::default()).unwrap();
        assert_eq!(*v.geometry(), SimConfig::default().validate().unwrap());
        let mut bad = SimConfig::default();
        bad.ftl.gc_free_blocks = 0;
        let e = ValidConfig::new(bad.clone()).unwrap_err().to_string();
        assert_eq!(e, bad.validate().unwrap_err().to_string());
        assert!(e.starts_with("ftl.gc_free_blocks"), "{e}");
        let e = ValidConfig::from_json(r#"{"ftl": {"policy": "nope"}}"#).unwrap_err();
        assert!(e.to_string().starts_with("ftl.policy"), "{e}");
    }
}
