//! Playing delves, on the minds ([`delve_minds`]) and beneath the tools (DESIGN.md › Layout):
//! the one list of plugins ([`plugins`], composing every rule area and mind), the delve
//! ([`sim`]), keyframes, saves, the timeline's marks and scenarios.

pub mod keyframe;
pub mod plugins;
pub mod save;
pub mod scenario;
pub mod sim;
pub mod timeline;
