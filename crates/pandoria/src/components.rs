//! Small component enums shared by every module.

use serde::{Deserialize, Serialize};

/// A land terrain (P-G4). The order is the data file's.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[ts(export_to = "pandoria/")]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Forest,
    Hill,
    Mountain,
    City,
}

impl Terrain {
    pub const ALL: [Terrain; 4] = [
        Terrain::Forest,
        Terrain::Hill,
        Terrain::Mountain,
        Terrain::City,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// What a region of this terrain pays (P-G4): a resource, or points for a city.
    pub const fn resource(self) -> Option<Resource> {
        match self {
            Terrain::Forest => Some(Resource::Wood),
            Terrain::Hill => Some(Resource::Gold),
            Terrain::Mountain => Some(Resource::Crystal),
            Terrain::City => None,
        }
    }

    /// One letter for text maps: F H M C.
    pub const fn letter(self) -> char {
        match self {
            Terrain::Forest => 'F',
            Terrain::Hill => 'H',
            Terrain::Mountain => 'M',
            Terrain::City => 'C',
        }
    }
}

/// A resource (P-Z1), each tracked 0..=10.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ts_rs::TS,
)]
#[ts(export_to = "pandoria/")]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    Crystal,
    Gold,
    Wood,
}

impl Resource {
    pub const ALL: [Resource; 3] = [Resource::Crystal, Resource::Gold, Resource::Wood];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// The resource in words, for logs and terminal play.
    pub const fn name(self) -> &'static str {
        match self {
            Resource::Crystal => "crystal",
            Resource::Gold => "gold",
            Resource::Wood => "wood",
        }
    }
}
