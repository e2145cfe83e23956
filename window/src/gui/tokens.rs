//! Creatures as tokens: a disc in the faction's colour with the creature's initials on it and a
//! readable name label, moved to follow the creature's square, and a ring around the selected
//! one.

use delve_ground::grid::GridPos;
use delve_rules::creature::{Below, Conditions};
use delve_rules::rules::caving::Climbing;
use delve_rules::rules::caving::events::Path;
use delve_rules::rules::caving::traverse::Traversing;
use delve_rules::rules::light::{LightLevel, LightMap};
use delve_rules::rules::water::Drowning;

use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use bevy::sprite::Text2dShadow;

use super::squares::square_to_world;
use super::state::{Art, Selected, Token};
use delve_ground::grid::DungeonGrid;
use delve_rules::creature::{Creature, Faction, Factions, Position};

/// A token's name label.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct TokenLabel;

/// A creature's initials on its token.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct TokenInitials;

/// The mark at a token's upper right corner: what state the creature is in ([`StateMark`]).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct TokenMark;

/// A creature's state as its token shows it, the gravest first: one mark a token, at every
/// zoom, in a colour of its own (the overlays' legend, `gui::legend`, names them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StateMark {
    Dead,
    /// Dying (`delve_rules::rules::conditions::is_down`, short of dead).
    Down,
    Drowning,
    Stuck,
    Prone,
    /// On a square no light reaches (darkness or magical darkness).
    InTheDark,
}

impl StateMark {
    /// Every mark, gravest first.
    pub const ALL: &[StateMark] = &[
        StateMark::Dead,
        StateMark::Down,
        StateMark::Drowning,
        StateMark::Stuck,
        StateMark::Prone,
        StateMark::InTheDark,
    ];

    /// Its glyph (in the map labels' font: ASCII).
    pub fn glyph(self) -> &'static str {
        match self {
            StateMark::Dead => "x",
            StateMark::Down => "+",
            StateMark::Drowning => "~",
            StateMark::Stuck => "s",
            StateMark::Prone => "p",
            StateMark::InTheDark => "d",
        }
    }

    /// Its colour, sRGB.
    pub fn color(self) -> [u8; 3] {
        match self {
            StateMark::Dead => [200, 200, 200],
            StateMark::Down => [255, 80, 70],
            StateMark::Drowning => [90, 200, 255],
            StateMark::Stuck => [255, 220, 90],
            StateMark::Prone => [255, 150, 60],
            StateMark::InTheDark => [185, 140, 255],
        }
    }

    /// What it means, for the legend.
    pub fn words(self) -> &'static str {
        match self {
            StateMark::Dead => "dead",
            StateMark::Down => "down: dying",
            StateMark::Drowning => "drowning",
            StateMark::Stuck => "stuck (in a squeeze, a web, mud)",
            StateMark::Prone => "prone",
            StateMark::InTheDark => "in the dark: no light reaches its square",
        }
    }

    /// The gravest mark of a creature in these conditions, drowning or not, in this light.
    pub fn of(conditions: &Conditions, drowning: bool, light: LightLevel) -> Option<StateMark> {
        use delve_ground::level::schema::ConditionKind as K;
        use delve_rules::rules::light::LightLevel as L;
        if conditions.has(K::Dead) {
            Some(StateMark::Dead)
        } else if delve_rules::rules::conditions::is_down(conditions) {
            Some(StateMark::Down)
        } else if drowning {
            Some(StateMark::Drowning)
        } else if conditions.has(K::Stuck) {
            Some(StateMark::Stuck)
        } else if conditions.has(K::Prone) {
            Some(StateMark::Prone)
        } else if matches!(light, L::Dark | L::MagicalDarkness) {
            Some(StateMark::InTheDark)
        } else {
            None
        }
    }
}

/// Each token's mark: its creature's gravest state, or none.
fn mark_states(
    grid: Res<DungeonGrid>,
    light: Option<Res<LightMap>>,
    creatures: Query<(&Position, &Conditions, Has<Drowning>)>,
    tokens: Query<&Token>,
    mut marks: Query<(&ChildOf, &mut Text2d, &mut TextColor, &mut Visibility), With<TokenMark>>,
) {
    for (parent, mut text, mut color, mut vis) in &mut marks {
        let Ok(token) = tokens.get(parent.parent()) else {
            continue;
        };
        let Ok((at, conditions, drowning)) = creatures.get(token.creature) else {
            continue;
        };
        let lit = light
            .as_ref()
            .map_or(LightLevel::Bright, |l| l.level(&grid, at.0));
        let mark = StateMark::of(conditions, drowning, lit);
        let want = if mark.is_some() {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if *vis != want {
            *vis = want;
        }
        if let Some(m) = mark {
            if text.0 != m.glyph() {
                text.0 = m.glyph().to_owned();
            }
            let [r, g, b] = m.color();
            let c = Color::srgb_u8(r, g, b);
            if color.0 != c {
                color.0 = c;
            }
        }
    }
}

/// A creature's initials, to tell tokens apart at a glance: a numbered one's first letter and
/// number (`Rat 3` → `R3`), else the first letters of its first two capitalised words
/// (`Warden of Ash` → `WA`, `Brannoc` → `B`).
pub fn initials(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let first = |w: &str| w.chars().next().map(|c| c.to_uppercase().to_string());
    match words.as_slice() {
        [] => String::new(),
        [one, .., last] if last.chars().all(|c| c.is_ascii_digit()) => {
            format!("{}{last}", first(one).unwrap_or_default())
        }
        _ => {
            let capitals: Vec<String> = words
                .iter()
                .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
                .filter_map(|w| first(w))
                .take(2)
                .collect();
            if capitals.is_empty() {
                first(words[0]).unwrap_or_default()
            } else {
                capitals.concat()
            }
        }
    }
}

/// Squares narrower than this on the screen show no initials: a token is a dot.
pub const INITIALS_SQUARE_PX: f32 = 8.0;

/// Initials are shown while squares are at least [`INITIALS_SQUARE_PX`] wide on the screen
/// (the players' window always), their size shrinking with the squares
/// (`labels::ShrinkWithSquares`).
fn initials_when_roomy(
    camera: Query<&Projection, With<super::state::MapCamera>>,
    tokens: Query<Has<super::state::PlayersCopy>, With<Token>>,
    mut marks: Query<(&ChildOf, &mut Visibility), With<TokenInitials>>,
) {
    let roomy =
        super::labels::square_px(super::labels::camera_scale(&camera)) >= INITIALS_SQUARE_PX;
    for (parent, mut vis) in &mut marks {
        let for_players = tokens.get(parent.parent()).unwrap_or(false);
        let want = if roomy || for_players {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if *vis != want {
            *vis = want;
        }
    }
}

/// Labels sit above the token on one colour of a checkerboard and below it on the other, so
/// the names of creatures standing next to each other do not overlap.
fn label_offset(p: GridPos) -> f32 {
    if (p.x + p.y).rem_euclid(2) == 0 {
        21.0
    } else {
        -21.0
    }
}

/// Two names side by side are wider than their squares: a creature with another beside it (on
/// any of the eight squares around it) is named only while it is selected or under the pointer;
/// one standing apart is named while the squares are wide enough for text
/// ([`super::labels::ROOMY_SQUARE_PX`]; the players' window always is), and every creature
/// while squares are as wide as a name ([`super::labels::NAME_WIDE_SQUARE_PX`]).
fn name_the_crowded_on_hover(
    selected: Res<Selected>,
    pointer: super::pointer::Pointer,
    camera: Query<&Projection, With<super::state::MapCamera>>,
    creatures: Query<(Entity, &Position), With<Creature>>,
    tokens: Query<(&Token, Has<super::state::PlayersCopy>)>,
    mut labels: Query<(&ChildOf, &mut Visibility), With<TokenLabel>>,
) {
    let hovered = pointer.square();
    let scale = super::labels::camera_scale(&camera);
    let roomy = super::labels::roomy(scale);
    // Squares as wide as a name leave room for neighbours' names too.
    let roomy_for_crowds = super::labels::square_px(scale) >= super::labels::NAME_WIDE_SQUARE_PX;
    let mut taken: std::collections::HashMap<GridPos, usize> = Default::default();
    for (_, p) in &creatures {
        *taken.entry(p.0).or_default() += 1;
    }
    for (parent, mut vis) in &mut labels {
        let Ok((token, for_players)) = tokens.get(parent.parent()) else {
            continue;
        };
        let Ok((_, at)) = creatures.get(token.creature) else {
            continue;
        };
        let at = at.0;
        // (Sharing its square, it is named only while selected: the tooltip names them all.)
        let shares = taken.get(&at).is_some_and(|&n| n > 1);
        let crowded = shares
            || (-1..=1)
                .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
                .filter(|&d| d != (0, 0))
                .any(|(dx, dy)| taken.contains_key(&GridPos::new(at.x + dx, at.y + dy)));
        let named = (!crowded && (roomy || for_players))
            || (roomy_for_crowds && !for_players && !shares)
            || selected.0 == Some(token.creature)
            || (hovered == Some(at) && !shares);
        let want = if named {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if *vis != want {
            *vis = want;
        }
    }
}

/// The ring shown around the selected creature.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct SelectionRing;

/// What a token is drawn from.
#[derive(QueryData)]
pub struct TokenSource {
    pub entity: Entity,
    pub name: &'static Name,
    pub position: &'static Position,
    pub faction: &'static Faction,
    _creature: &'static Creature,
}

pub struct TokensPlugin;

impl Plugin for TokensPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (
                follow_creatures,
                ring_the_selected,
                label_caving_states,
                name_the_crowded_on_hover,
                initials_when_roomy,
                lay_the_fallen,
                mark_states,
            )
                .after(super::state::RedrawSet),
        );
    }
}

pub const TOKEN_PX: f32 = 26.0;

pub fn spawn_tokens(
    commands: &mut Commands,
    drawn: &super::state::Drawn,
    art: &Art,
    grid_height: u32,
    creatures: &Query<TokenSource>,
    factions: &Factions,
) {
    for c in creatures {
        let label_y = label_offset(c.position.0);
        let at = square_to_world(grid_height, c.position.0.x, c.position.0.y);
        let [r, g, b] = faction_color(factions, *c.faction);
        let token = commands
            .spawn((
                drawn.marks(),
                Token { creature: c.entity },
                Sprite {
                    image: art.token.clone(),
                    color: Color::srgb_u8(r, g, b),
                    custom_size: Some(Vec2::splat(TOKEN_PX)),
                    ..default()
                },
                Transform::from_xyz(at.x, at.y, 10.0),
            ))
            .id();
        let label = commands
            .spawn((
                TokenLabel,
                ChildOf(token),
                Text2d::new(c.name.to_string()),
                TextFont::from_font_size(13.0),
                TextColor(Color::WHITE),
                Text2dShadow {
                    offset: Vec2::new(1.0, -1.0),
                    color: Color::BLACK,
                },
                Transform::from_xyz(0.0, label_y, 1.0),
            ))
            .id();
        // The creature's initials on its disc: who is who when names would overlap.
        let marked = commands
            .spawn((
                TokenInitials,
                ChildOf(token),
                Text2d::new(initials(c.name.as_str())),
                TextFont::from_font_size(11.0),
                TextColor(Color::srgb(0.05, 0.05, 0.05)),
                Transform::from_xyz(0.0, 0.0, 0.5),
            ))
            .id();
        // The creature's state at the disc's upper right corner, at every zoom.
        let state = commands
            .spawn((
                TokenMark,
                ChildOf(token),
                Text2d::new(""),
                TextFont::from_font_size(12.0),
                TextColor(Color::WHITE),
                Text2dShadow {
                    offset: Vec2::new(1.0, -1.0),
                    color: Color::BLACK,
                },
                Transform::from_xyz(TOKEN_PX * 0.45, TOKEN_PX * 0.45, 1.5),
                Visibility::Hidden,
            ))
            .id();
        // Initials and marks shrink with the squares, down to a legible size.
        for text in [marked, state] {
            commands
                .entity(text)
                .insert(super::labels::ShrinkWithSquares { font_px: 11.0 });
        }
        // The Judge's copy's text at a fixed size on the screen, on the labels' layer (not on
        // the minimap); the players' window has a zoom of its own.
        for text in [label, marked, state] {
            if drawn.for_players {
                commands.entity(text).insert(drawn.layer.clone());
            } else {
                commands.entity(text).insert(super::labels::screen_text());
            }
        }
        drawn.mark_players(commands, token);
    }
    let ring = commands
        .spawn((
            drawn.marks(),
            SelectionRing,
            Sprite {
                image: art.ring.clone(),
                custom_size: Some(Vec2::splat(TOKEN_PX + 10.0)),
                ..default()
            },
            Transform::from_xyz(0.0, 0.0, 9.0),
            Visibility::Hidden,
        ))
        .id();
    drawn.mark_players(commands, ring);
}

/// A faction's colour (grey for one without).
fn faction_color(factions: &Factions, faction: Faction) -> [u8; 3] {
    factions
        .0
        .get(faction.0)
        .map_or([200, 200, 200], |f| f.color)
}

/// The fallen lie on their square: the token of a creature that is down — dying, unconscious or
/// dead — is drawn flat and greyed (the dead darker), so that what stands is told at a glance
/// from what lies.
fn lay_the_fallen(
    factions: Res<Factions>,
    creatures: Query<(&Faction, &Conditions)>,
    mut tokens: Query<(&Token, &mut Sprite)>,
) {
    for (token, mut sprite) in &mut tokens {
        let Ok((faction, conditions)) = creatures.get(token.creature) else {
            continue;
        };
        let [r, g, b] = faction_color(&factions, *faction);
        let (color, size) = if delve_rules::rules::conditions::is_down(conditions) {
            let dead = conditions.has(delve_ground::level::schema::ConditionKind::Dead);
            let grey = |c: u8| {
                let c = f32::from(c) / 255.0;
                (c * 0.25 + 0.35) * if dead { 0.6 } else { 1.0 }
            };
            (
                Color::srgb(grey(r), grey(g), grey(b)),
                Vec2::new(TOKEN_PX, TOKEN_PX * LYING),
            )
        } else {
            (Color::srgb_u8(r, g, b), Vec2::splat(TOKEN_PX))
        };
        if sprite.color != color {
            sprite.color = color;
        }
        if sprite.custom_size != Some(size) {
            sprite.custom_size = Some(size);
        }
    }
}

/// Where a token stands within its square, and its scale, among the `sharing` creatures
/// there (in entity order): alone, in the middle at full size; two, left and right; three or
/// four, in the square's quarters; each at half size.
fn side_by_side(sharing: &[Entity], creature: Entity) -> (Vec2, f32) {
    if sharing.len() < 2 {
        return (Vec2::ZERO, 1.0);
    }
    let mut order = sharing.to_vec();
    order.sort();
    let i = order.iter().position(|&e| e == creature).unwrap_or(0) % 4;
    let quarter = super::art::TILE_PX as f32 / 4.0;
    let x = if i % 2 == 0 { -quarter } else { quarter };
    let y = match (sharing.len(), i / 2) {
        (2, _) => 0.0,
        (_, 0) => quarter,
        _ => -quarter,
    };
    (Vec2::new(x, y), 0.5)
}

/// A lying token's height, of its width.
const LYING: f32 = 0.5;

/// Tokens stand on their creature's square — those sharing one (in a squeeze, a carried
/// companion, the fallen under a fighter) side by side at half size, so none hides another;
/// labels keep to their checkerboard side.
fn follow_creatures(
    grid: Res<DungeonGrid>,
    positions: Query<&Position>,
    mut tokens: Query<(&Token, &mut Transform), Without<TokenLabel>>,
    mut labels: Query<(&ChildOf, &mut Transform), With<TokenLabel>>,
) {
    let mut on: std::collections::BTreeMap<(i32, i32), Vec<Entity>> = Default::default();
    for (token, _) in &tokens {
        if let Ok(p) = positions.get(token.creature) {
            // Once each: the players' window draws a second token of the same creature.
            let here = on.entry((p.0.x, p.0.y)).or_default();
            if !here.contains(&token.creature) {
                here.push(token.creature);
            }
        }
    }
    for (token, mut tf) in &mut tokens {
        let Ok(p) = positions.get(token.creature) else {
            continue;
        };
        let at = square_to_world(grid.height(), p.0.x, p.0.y);
        let sharing = on.get(&(p.0.x, p.0.y)).map_or(&[][..], Vec::as_slice);
        let (offset, scale) = side_by_side(sharing, token.creature);
        tf.translation.x = at.x + offset.x;
        tf.translation.y = at.y + offset.y;
        if tf.scale.x != scale {
            tf.scale = Vec3::new(scale, scale, 1.0);
        }
    }
    for (parent, mut tf) in &mut labels {
        if let Ok((token, _)) = tokens.get(parent.parent())
            && let Ok(p) = positions.get(token.creature)
        {
            // A half-size token's label keeps its distance from the square (and its size:
            // `labels`).
            let token_scale = tokens
                .get(parent.parent())
                .map_or(1.0, |(_, t)| t.scale.x.max(0.01));
            let y = label_offset(p.0) / token_scale;
            if tf.translation.y != y {
                tf.translation.y = y;
            }
        }
    }
}

fn ring_the_selected(
    selected: Res<Selected>,
    grid: Res<DungeonGrid>,
    positions: Query<&Position>,
    mut ring: Query<(&mut Transform, &mut Visibility), With<SelectionRing>>,
) {
    for (mut tf, mut vis) in &mut ring {
        match selected.0.and_then(|e| positions.get(e).ok()) {
            Some(p) => {
                let at = square_to_world(grid.height(), p.0.x, p.0.y);
                tf.translation.x = at.x;
                tf.translation.y = at.y;
                *vis = Visibility::Visible;
            }
            None => *vis = Visibility::Hidden,
        }
    }
}

/// What a creature is doing that the map does not show by its square: on a rope or a ledge, at
/// the bottom of a pit or chasm, swimming, drowning, stuck.
fn caving_state(state: CavingState) -> Option<&'static str> {
    let CavingState {
        climbing,
        traversing,
        below,
        drowning,
        stuck,
        swimming,
    } = state;
    if drowning {
        Some("drowning")
    } else if stuck {
        Some("stuck")
    } else if let Some(t) = traversing {
        Some(match t.path {
            Path::Rope => "on the rope",
            _ => "on the ledge",
        })
    } else if climbing {
        Some("climbing")
    } else if below {
        Some("at the bottom")
    } else if swimming {
        Some("swimming")
    } else {
        None
    }
}

struct CavingState {
    climbing: bool,
    traversing: Option<Traversing>,
    below: bool,
    drowning: bool,
    stuck: bool,
    swimming: bool,
}

type CaverQuery<'a> = (
    &'a Name,
    &'a Position,
    &'a Conditions,
    Has<Climbing>,
    Option<&'a Traversing>,
    Has<Below>,
    Has<Drowning>,
);

/// Labels say what a creature is doing on a rope, a ledge or in the water, in either view.
fn label_caving_states(
    grid: Res<DungeonGrid>,
    creatures: Query<CaverQuery>,
    tokens: Query<&Token>,
    mut labels: Query<(&ChildOf, &mut Text2d), With<TokenLabel>>,
) {
    use delve_ground::grid::Terrain;
    use delve_ground::grid::WaterDepth;
    use delve_ground::level::schema::ConditionKind;
    for (parent, mut text) in &mut labels {
        let Ok(token) = tokens.get(parent.parent()) else {
            continue;
        };
        let Ok((name, at, conditions, climbing, traversing, below, drowning)) =
            creatures.get(token.creature)
        else {
            continue;
        };
        let state = caving_state(CavingState {
            climbing,
            traversing: traversing.copied(),
            below,
            drowning,
            stuck: conditions.has(ConditionKind::Stuck),
            swimming: grid.terrain(at.0) == Some(Terrain::Water(WaterDepth::Deep)),
        });
        let wanted = match state {
            Some(s) => format!("{name} ({s})"),
            None => name.to_string(),
        };
        if text.0 != wanted {
            text.0 = wanted;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::initials;

    /// Two on a square stand left and right at half size, three in distinct quarters; one
    /// alone in the middle at full size.
    #[test]
    fn tokens_sharing_a_square_stand_side_by_side() {
        use bevy::prelude::{Entity, Vec2};
        let (a, b, c) = (
            Entity::from_raw_u32(1).unwrap(),
            Entity::from_raw_u32(2).unwrap(),
            Entity::from_raw_u32(3).unwrap(),
        );
        assert_eq!(super::side_by_side(&[a], a), (Vec2::ZERO, 1.0));
        let (left, half) = super::side_by_side(&[b, a], a);
        let (right, _) = super::side_by_side(&[b, a], b);
        assert_eq!(half, 0.5);
        assert!(left.x * right.x < 0.0 && left.y == 0.0 && right.y == 0.0);
        let three: Vec<Vec2> = [a, b, c]
            .iter()
            .map(|&e| super::side_by_side(&[a, b, c], e).0)
            .collect();
        assert!(three[0] != three[1] && three[1] != three[2] && three[0] != three[2]);
    }

    /// A token's mark is its creature's gravest state: dead over down over drowning over stuck
    /// over prone over the dark; none for one standing in the light.
    #[test]
    fn a_token_is_marked_with_the_gravest_state() {
        use super::StateMark;
        use delve_ground::level::schema::ConditionKind as K;
        use delve_rules::creature::Conditions;
        use delve_rules::rules::light::LightLevel as L;
        let of = |kinds: &[K], drowning: bool, light: L| {
            StateMark::of(&Conditions::from_level(kinds), drowning, light)
        };
        assert_eq!(of(&[], false, L::Bright), None);
        assert_eq!(of(&[], false, L::Dim), None);
        assert_eq!(of(&[], false, L::Dark), Some(StateMark::InTheDark));
        assert_eq!(of(&[K::Prone], false, L::Dark), Some(StateMark::Prone));
        assert_eq!(
            of(&[K::Prone, K::Stuck], false, L::Bright),
            Some(StateMark::Stuck)
        );
        assert_eq!(of(&[K::Stuck], true, L::Bright), Some(StateMark::Drowning));
        assert_eq!(of(&[K::Dying], true, L::Bright), Some(StateMark::Down));
        assert_eq!(
            of(&[K::Dead, K::Prone], false, L::Dark),
            Some(StateMark::Dead)
        );
        // Each mark its own glyph.
        let glyphs: std::collections::BTreeSet<&str> =
            StateMark::ALL.iter().map(|m| m.glyph()).collect();
        assert_eq!(glyphs.len(), StateMark::ALL.len());
    }

    /// Initials tell the crypt's and the cave's creatures apart.
    #[test]
    fn initials_of_names() {
        assert_eq!(initials("Brannoc"), "B");
        assert_eq!(initials("Rat 3"), "R3");
        assert_eq!(initials("Warden of Ash"), "WA");
        assert_eq!(initials("Pale Crawler"), "PC");
        assert_eq!(initials("the dead"), "T");
        assert_eq!(initials(""), "");
    }
}
