#![allow(clippy::redundant_closure_call)]
#![allow(clippy::needless_lifetimes)]
#![allow(clippy::match_single_binding)]
#![allow(clippy::clone_on_copy)]

#[doc = "`breakpoint.clear` (§1 Controls): removes by matcher equality (§5.12)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct BreakpointClear {
    #[doc = "Matcher to remove."]
    pub matcher: BreakpointMatcher,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "Selects gates to pause at (§1 `BreakpointMatcher`). `{}` is valid and matches every\n`before` gate; an absent `point` means `before` when matching (§5.12), not when parsing."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct BreakpointMatcher {
    #[doc = "Node kind to match."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub kind: ::std::option::Option<NodeKind>,
    #[doc = "Node name to match."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub name: ::std::option::Option<::std::string::String>,
    #[doc = "Gate point to match (absent: `before`)."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub point: ::std::option::Option<PausePoint>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`breakpoint.set` (§1 Controls)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct BreakpointSet {
    #[doc = "Matcher to add."]
    pub matcher: BreakpointMatcher,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`hello.versions`: protocol (any safe integer, not checked against `gm`) and client."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct ClientVersions {
    #[doc = "Client library version."]
    pub client: ::std::string::String,
    #[doc = "Protocol version the app speaks."]
    pub protocol: i64,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "An edit applied on resume (`exec.resumed.edited`): the key `after` is required, its\nvalue may be `null`."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EditedValue {
    #[doc = "The value after the edit (opaque)."]
    pub after: ::serde_json::Value,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeBreakpointClear`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeBreakpointClear {
    pub gm: EnvelopeBreakpointClearGm,
    pub payload: BreakpointClear,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeBreakpointClearType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeBreakpointClearGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeBreakpointClearGm(f64);
impl ::std::ops::Deref for EnvelopeBreakpointClearGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeBreakpointClearGm> for f64 {
    fn from(value: EnvelopeBreakpointClearGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeBreakpointClearGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeBreakpointClearGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeBreakpointClearType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeBreakpointClearType {
    #[serde(rename = "breakpoint.clear")]
    BreakpointClear,
}
impl ::std::fmt::Display for EnvelopeBreakpointClearType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::BreakpointClear => f.write_str("breakpoint.clear"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeBreakpointClearType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "breakpoint.clear" => Ok(Self::BreakpointClear),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeBreakpointClearType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeBreakpointClearType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeBreakpointSet`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeBreakpointSet {
    pub gm: EnvelopeBreakpointSetGm,
    pub payload: BreakpointSet,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeBreakpointSetType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeBreakpointSetGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeBreakpointSetGm(f64);
impl ::std::ops::Deref for EnvelopeBreakpointSetGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeBreakpointSetGm> for f64 {
    fn from(value: EnvelopeBreakpointSetGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeBreakpointSetGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeBreakpointSetGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeBreakpointSetType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeBreakpointSetType {
    #[serde(rename = "breakpoint.set")]
    BreakpointSet,
}
impl ::std::fmt::Display for EnvelopeBreakpointSetType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::BreakpointSet => f.write_str("breakpoint.set"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeBreakpointSetType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "breakpoint.set" => Ok(Self::BreakpointSet),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeBreakpointSetType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeBreakpointSetType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeExecPaused`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeExecPaused {
    pub gm: EnvelopeExecPausedGm,
    pub payload: ExecPaused,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeExecPausedType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeExecPausedGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeExecPausedGm(f64);
impl ::std::ops::Deref for EnvelopeExecPausedGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeExecPausedGm> for f64 {
    fn from(value: EnvelopeExecPausedGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeExecPausedGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeExecPausedGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeExecPausedType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeExecPausedType {
    #[serde(rename = "exec.paused")]
    ExecPaused,
}
impl ::std::fmt::Display for EnvelopeExecPausedType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::ExecPaused => f.write_str("exec.paused"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeExecPausedType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "exec.paused" => Ok(Self::ExecPaused),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeExecPausedType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeExecPausedType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeExecRefused`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeExecRefused {
    pub gm: EnvelopeExecRefusedGm,
    pub payload: ExecRefused,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeExecRefusedType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeExecRefusedGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeExecRefusedGm(f64);
impl ::std::ops::Deref for EnvelopeExecRefusedGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeExecRefusedGm> for f64 {
    fn from(value: EnvelopeExecRefusedGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeExecRefusedGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeExecRefusedGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeExecRefusedType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeExecRefusedType {
    #[serde(rename = "exec.refused")]
    ExecRefused,
}
impl ::std::fmt::Display for EnvelopeExecRefusedType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::ExecRefused => f.write_str("exec.refused"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeExecRefusedType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "exec.refused" => Ok(Self::ExecRefused),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeExecRefusedType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeExecRefusedType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeExecResume`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeExecResume {
    pub gm: EnvelopeExecResumeGm,
    pub payload: ExecResume,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeExecResumeType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeExecResumeGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeExecResumeGm(f64);
impl ::std::ops::Deref for EnvelopeExecResumeGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeExecResumeGm> for f64 {
    fn from(value: EnvelopeExecResumeGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeExecResumeGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeExecResumeGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeExecResumeType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeExecResumeType {
    #[serde(rename = "exec.resume")]
    ExecResume,
}
impl ::std::fmt::Display for EnvelopeExecResumeType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::ExecResume => f.write_str("exec.resume"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeExecResumeType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "exec.resume" => Ok(Self::ExecResume),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeExecResumeType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeExecResumeType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeExecResumed`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeExecResumed {
    pub gm: EnvelopeExecResumedGm,
    pub payload: ExecResumed,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeExecResumedType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeExecResumedGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeExecResumedGm(f64);
impl ::std::ops::Deref for EnvelopeExecResumedGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeExecResumedGm> for f64 {
    fn from(value: EnvelopeExecResumedGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeExecResumedGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeExecResumedGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeExecResumedType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeExecResumedType {
    #[serde(rename = "exec.resumed")]
    ExecResumed,
}
impl ::std::fmt::Display for EnvelopeExecResumedType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::ExecResumed => f.write_str("exec.resumed"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeExecResumedType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "exec.resumed" => Ok(Self::ExecResumed),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeExecResumedType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeExecResumedType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeGraphHint`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeGraphHint {
    pub gm: EnvelopeGraphHintGm,
    pub payload: GraphHint,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeGraphHintType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeGraphHintGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeGraphHintGm(f64);
impl ::std::ops::Deref for EnvelopeGraphHintGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeGraphHintGm> for f64 {
    fn from(value: EnvelopeGraphHintGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeGraphHintGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeGraphHintGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeGraphHintType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeGraphHintType {
    #[serde(rename = "graph.hint")]
    GraphHint,
}
impl ::std::fmt::Display for EnvelopeGraphHintType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::GraphHint => f.write_str("graph.hint"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeGraphHintType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "graph.hint" => Ok(Self::GraphHint),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeGraphHintType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeGraphHintType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeHello`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeHello {
    pub gm: EnvelopeHelloGm,
    pub payload: Hello,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeHelloType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeHelloAck`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeHelloAck {
    pub gm: EnvelopeHelloAckGm,
    pub payload: HelloAck,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeHelloAckType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeHelloAckGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeHelloAckGm(f64);
impl ::std::ops::Deref for EnvelopeHelloAckGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeHelloAckGm> for f64 {
    fn from(value: EnvelopeHelloAckGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeHelloAckGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeHelloAckGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeHelloAckType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeHelloAckType {
    #[serde(rename = "hello.ack")]
    HelloAck,
}
impl ::std::fmt::Display for EnvelopeHelloAckType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::HelloAck => f.write_str("hello.ack"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeHelloAckType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "hello.ack" => Ok(Self::HelloAck),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeHelloAckType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeHelloAckType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeHelloGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeHelloGm(f64);
impl ::std::ops::Deref for EnvelopeHelloGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeHelloGm> for f64 {
    fn from(value: EnvelopeHelloGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeHelloGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeHelloGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeHelloType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeHelloType {
    #[serde(rename = "hello")]
    Hello,
}
impl ::std::fmt::Display for EnvelopeHelloType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::Hello => f.write_str("hello"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeHelloType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "hello" => Ok(Self::Hello),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeHelloType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeHelloType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeModeSet`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeModeSet {
    pub gm: EnvelopeModeSetGm,
    pub payload: ModeSet,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeModeSetType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeModeSetGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeModeSetGm(f64);
impl ::std::ops::Deref for EnvelopeModeSetGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeModeSetGm> for f64 {
    fn from(value: EnvelopeModeSetGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeModeSetGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeModeSetGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeModeSetType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeModeSetType {
    #[serde(rename = "mode.set")]
    ModeSet,
}
impl ::std::fmt::Display for EnvelopeModeSetType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::ModeSet => f.write_str("mode.set"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeModeSetType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "mode.set" => Ok(Self::ModeSet),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeModeSetType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeModeSetType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeNodeError`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeNodeError {
    pub gm: EnvelopeNodeErrorGm,
    pub payload: NodeError,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeNodeErrorType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeNodeErrorGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeNodeErrorGm(f64);
impl ::std::ops::Deref for EnvelopeNodeErrorGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeNodeErrorGm> for f64 {
    fn from(value: EnvelopeNodeErrorGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeNodeErrorGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeNodeErrorGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeNodeErrorType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeNodeErrorType {
    #[serde(rename = "node.error")]
    NodeError,
}
impl ::std::fmt::Display for EnvelopeNodeErrorType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::NodeError => f.write_str("node.error"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeNodeErrorType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "node.error" => Ok(Self::NodeError),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeNodeErrorType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeNodeErrorType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeNodeFinished`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeNodeFinished {
    pub gm: EnvelopeNodeFinishedGm,
    pub payload: NodeFinished,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeNodeFinishedType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeNodeFinishedGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeNodeFinishedGm(f64);
impl ::std::ops::Deref for EnvelopeNodeFinishedGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeNodeFinishedGm> for f64 {
    fn from(value: EnvelopeNodeFinishedGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeNodeFinishedGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeNodeFinishedGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeNodeFinishedType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeNodeFinishedType {
    #[serde(rename = "node.finished")]
    NodeFinished,
}
impl ::std::fmt::Display for EnvelopeNodeFinishedType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::NodeFinished => f.write_str("node.finished"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeNodeFinishedType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "node.finished" => Ok(Self::NodeFinished),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeNodeFinishedType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeNodeFinishedType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeNodeStarted`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeNodeStarted {
    pub gm: EnvelopeNodeStartedGm,
    pub payload: NodeStarted,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeNodeStartedType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeNodeStartedGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeNodeStartedGm(f64);
impl ::std::ops::Deref for EnvelopeNodeStartedGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeNodeStartedGm> for f64 {
    fn from(value: EnvelopeNodeStartedGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeNodeStartedGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeNodeStartedGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeNodeStartedType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeNodeStartedType {
    #[serde(rename = "node.started")]
    NodeStarted,
}
impl ::std::fmt::Display for EnvelopeNodeStartedType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::NodeStarted => f.write_str("node.started"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeNodeStartedType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "node.started" => Ok(Self::NodeStarted),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeNodeStartedType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeNodeStartedType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeNodeToken`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeNodeToken {
    pub gm: EnvelopeNodeTokenGm,
    pub payload: NodeToken,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeNodeTokenType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeNodeTokenGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeNodeTokenGm(f64);
impl ::std::ops::Deref for EnvelopeNodeTokenGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeNodeTokenGm> for f64 {
    fn from(value: EnvelopeNodeTokenGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeNodeTokenGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeNodeTokenGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeNodeTokenType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeNodeTokenType {
    #[serde(rename = "node.token")]
    NodeToken,
}
impl ::std::fmt::Display for EnvelopeNodeTokenType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::NodeToken => f.write_str("node.token"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeNodeTokenType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "node.token" => Ok(Self::NodeToken),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeNodeTokenType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeNodeTokenType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeRunFinished`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeRunFinished {
    pub gm: EnvelopeRunFinishedGm,
    pub payload: RunFinished,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeRunFinishedType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeRunFinishedGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeRunFinishedGm(f64);
impl ::std::ops::Deref for EnvelopeRunFinishedGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeRunFinishedGm> for f64 {
    fn from(value: EnvelopeRunFinishedGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeRunFinishedGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeRunFinishedGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeRunFinishedType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeRunFinishedType {
    #[serde(rename = "run.finished")]
    RunFinished,
}
impl ::std::fmt::Display for EnvelopeRunFinishedType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::RunFinished => f.write_str("run.finished"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeRunFinishedType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "run.finished" => Ok(Self::RunFinished),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeRunFinishedType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeRunFinishedType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeRunStarted`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeRunStarted {
    pub gm: EnvelopeRunStartedGm,
    pub payload: RunStarted,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeRunStartedType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeRunStartedGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeRunStartedGm(f64);
impl ::std::ops::Deref for EnvelopeRunStartedGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeRunStartedGm> for f64 {
    fn from(value: EnvelopeRunStartedGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeRunStartedGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeRunStartedGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeRunStartedType`"]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum EnvelopeRunStartedType {
    #[serde(rename = "run.started")]
    RunStarted,
}
impl ::std::fmt::Display for EnvelopeRunStartedType {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::RunStarted => f.write_str("run.started"),
        }
    }
}
impl ::std::str::FromStr for EnvelopeRunStartedType {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "run.started" => Ok(Self::RunStarted),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for EnvelopeRunStartedType {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeRunStartedType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`EnvelopeUnknown`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct EnvelopeUnknown {
    pub gm: EnvelopeUnknownGm,
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub payload: ::std::option::Option<::serde_json::Value>,
    #[serde(rename = "runId")]
    pub run_id: RunId,
    pub seq: SafeUint,
    #[doc = "Epoch milliseconds."]
    pub ts: SafeUint,
    #[serde(rename = "type")]
    pub type_: EnvelopeUnknownType,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`EnvelopeUnknownGm`"]
#[derive(:: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct EnvelopeUnknownGm(f64);
impl ::std::ops::Deref for EnvelopeUnknownGm {
    type Target = f64;
    fn deref(&self) -> &f64 {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeUnknownGm> for f64 {
    fn from(value: EnvelopeUnknownGm) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<f64> for EnvelopeUnknownGm {
    type Error = self::error::ConversionError;
    fn try_from(value: f64) -> ::std::result::Result<Self, self::error::ConversionError> {
        if ![1_f64].contains(&value) {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeUnknownGm {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<f64>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "`EnvelopeUnknownType`"]
#[derive(:: serde :: Serialize, Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
#[serde(transparent)]
pub struct EnvelopeUnknownType(::std::string::String);
impl ::std::ops::Deref for EnvelopeUnknownType {
    type Target = ::std::string::String;
    fn deref(&self) -> &::std::string::String {
        &self.0
    }
}
impl ::std::convert::From<EnvelopeUnknownType> for ::std::string::String {
    fn from(value: EnvelopeUnknownType) -> Self {
        value.0
    }
}
impl ::std::convert::TryFrom<::std::string::String> for EnvelopeUnknownType {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        if [
            "run.started".to_string(),
            "run.finished".to_string(),
            "graph.hint".to_string(),
            "node.started".to_string(),
            "node.token".to_string(),
            "node.finished".to_string(),
            "node.error".to_string(),
            "exec.paused".to_string(),
            "exec.refused".to_string(),
            "exec.resumed".to_string(),
            "exec.resume".to_string(),
            "breakpoint.set".to_string(),
            "breakpoint.clear".to_string(),
            "mode.set".to_string(),
            "hello".to_string(),
            "hello.ack".to_string(),
        ]
        .contains(&value)
        {
            Err("invalid value".into())
        } else {
            Ok(Self(value))
        }
    }
}
impl<'de> ::serde::Deserialize<'de> for EnvelopeUnknownType {
    fn deserialize<D>(deserializer: D) -> ::std::result::Result<Self, D::Error>
    where
        D: ::serde::Deserializer<'de>,
    {
        Self::try_from(<::std::string::String>::deserialize(deserializer)?)
            .map_err(|e| <D::Error as ::serde::de::Error>::custom(e.to_string()))
    }
}
#[doc = "An error description (§1 `ErrorInfo`)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct ErrorInfo {
    #[doc = "Exception message."]
    pub message: ::std::string::String,
    #[doc = "Exception class name."]
    pub name: ::std::string::String,
    #[doc = "Stack trace text."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub stack: ::std::option::Option<::std::string::String>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`exec.paused` (§1 Events): a gate is held."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct ExecPaused {
    #[doc = "Whether the input may be edited (0.6.0)."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub editable: ::std::option::Option<bool>,
    #[doc = "Id of this execution of the node (0.6.0)."]
    #[serde(
        rename = "instanceId",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub instance_id: ::std::option::Option<::std::string::String>,
    #[doc = "Loop-detection details (`loop` on the wire)."]
    #[serde(
        rename = "loop",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub loop_: ::std::option::Option<LoopInfo>,
    #[doc = "Node id."]
    #[serde(rename = "nodeId")]
    pub node_id: ::std::string::String,
    #[doc = "Pause id to answer with `exec.resume`."]
    #[serde(rename = "pauseId")]
    pub pause_id: ::std::string::String,
    #[doc = "Gate point."]
    pub point: PausePoint,
    #[doc = "Why it paused."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub reason: ::std::option::Option<PauseReason>,
    #[doc = "Smart-pause details."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub smart: ::std::option::Option<SmartInfo>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`exec.refused` (§1 Events, 0.6.0)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct ExecRefused {
    #[doc = "Refusal code."]
    pub code: RefusalCode,
    #[doc = "Human-readable reason."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub message: ::std::option::Option<::std::string::String>,
    #[doc = "Pause id of the refused resume."]
    #[serde(rename = "pauseId")]
    pub pause_id: ::std::string::String,
    #[doc = "Request id of the refused resume."]
    #[serde(
        rename = "requestId",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub request_id: ::std::option::Option<::std::string::String>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`exec.resume` (§1 Controls): `output` is accepted with any action."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct ExecResume {
    #[doc = "Action."]
    pub action: ResumeAction,
    #[doc = "Edited input (opaque, 0.6.0)."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub input: ::std::option::Option<::serde_json::Value>,
    #[doc = "Injected output (opaque)."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub output: ::std::option::Option<::serde_json::Value>,
    #[doc = "Pause id."]
    #[serde(rename = "pauseId")]
    pub pause_id: ::std::string::String,
    #[doc = "Request id, echoed in `exec.resumed`/`exec.refused`."]
    #[serde(
        rename = "requestId",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub request_id: ::std::option::Option<::std::string::String>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`exec.resumed` (§1 Events): sent for every release of a held gate."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct ExecResumed {
    #[doc = "Action taken."]
    pub action: ResumeAction,
    #[doc = "The edit applied."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub edited: ::std::option::Option<EditedValue>,
    #[doc = "Pause id."]
    #[serde(rename = "pauseId")]
    pub pause_id: ::std::string::String,
    #[doc = "Who resumed (set by the hub)."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub principal: ::std::option::Option<::std::string::String>,
    #[doc = "Request id of the resume."]
    #[serde(
        rename = "requestId",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub request_id: ::std::option::Option<::std::string::String>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`graph.hint` (§1 Events): optional static structure."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct GraphHint {
    #[doc = "Nodes (may be empty)."]
    pub nodes: ::std::vec::Vec<GraphNodeHint>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "One GraphMind frame {gm, seq, ts, runId, type, payload}. Unknown fields are allowed at every level and unknown message types are accepted with any payload; enums are closed, optional fields are never null, integers are safe integers (|x| <= 2^53-1)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
#[serde(untagged)]
pub enum GraphMindWireEnvelopeProtocolV1 {
    RunStarted(EnvelopeRunStarted),
    RunFinished(EnvelopeRunFinished),
    GraphHint(EnvelopeGraphHint),
    NodeStarted(EnvelopeNodeStarted),
    NodeToken(EnvelopeNodeToken),
    NodeFinished(EnvelopeNodeFinished),
    NodeError(EnvelopeNodeError),
    ExecPaused(EnvelopeExecPaused),
    ExecRefused(EnvelopeExecRefused),
    ExecResumed(EnvelopeExecResumed),
    ExecResume(EnvelopeExecResume),
    BreakpointSet(EnvelopeBreakpointSet),
    BreakpointClear(EnvelopeBreakpointClear),
    ModeSet(EnvelopeModeSet),
    Hello(EnvelopeHello),
    HelloAck(EnvelopeHelloAck),
    Unknown(EnvelopeUnknown),
}
impl ::std::convert::From<EnvelopeRunStarted> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeRunStarted) -> Self {
        Self::RunStarted(value)
    }
}
impl ::std::convert::From<EnvelopeRunFinished> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeRunFinished) -> Self {
        Self::RunFinished(value)
    }
}
impl ::std::convert::From<EnvelopeGraphHint> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeGraphHint) -> Self {
        Self::GraphHint(value)
    }
}
impl ::std::convert::From<EnvelopeNodeStarted> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeNodeStarted) -> Self {
        Self::NodeStarted(value)
    }
}
impl ::std::convert::From<EnvelopeNodeToken> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeNodeToken) -> Self {
        Self::NodeToken(value)
    }
}
impl ::std::convert::From<EnvelopeNodeFinished> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeNodeFinished) -> Self {
        Self::NodeFinished(value)
    }
}
impl ::std::convert::From<EnvelopeNodeError> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeNodeError) -> Self {
        Self::NodeError(value)
    }
}
impl ::std::convert::From<EnvelopeExecPaused> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeExecPaused) -> Self {
        Self::ExecPaused(value)
    }
}
impl ::std::convert::From<EnvelopeExecRefused> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeExecRefused) -> Self {
        Self::ExecRefused(value)
    }
}
impl ::std::convert::From<EnvelopeExecResumed> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeExecResumed) -> Self {
        Self::ExecResumed(value)
    }
}
impl ::std::convert::From<EnvelopeExecResume> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeExecResume) -> Self {
        Self::ExecResume(value)
    }
}
impl ::std::convert::From<EnvelopeBreakpointSet> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeBreakpointSet) -> Self {
        Self::BreakpointSet(value)
    }
}
impl ::std::convert::From<EnvelopeBreakpointClear> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeBreakpointClear) -> Self {
        Self::BreakpointClear(value)
    }
}
impl ::std::convert::From<EnvelopeModeSet> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeModeSet) -> Self {
        Self::ModeSet(value)
    }
}
impl ::std::convert::From<EnvelopeHello> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeHello) -> Self {
        Self::Hello(value)
    }
}
impl ::std::convert::From<EnvelopeHelloAck> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeHelloAck) -> Self {
        Self::HelloAck(value)
    }
}
impl ::std::convert::From<EnvelopeUnknown> for GraphMindWireEnvelopeProtocolV1 {
    fn from(value: EnvelopeUnknown) -> Self {
        Self::Unknown(value)
    }
}
#[doc = "One node of a static graph hint (§1 `GraphNodeHint`)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct GraphNodeHint {
    #[doc = "Node kind."]
    pub kind: NodeKind,
    #[doc = "Display name."]
    pub name: ::std::string::String,
    #[doc = "Node id."]
    #[serde(rename = "nodeId")]
    pub node_id: ::std::string::String,
    #[doc = "Parent node id."]
    #[serde(
        rename = "parentId",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub parent_id: ::std::option::Option<::std::string::String>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`hello` (§1 Handshake, app → viewer)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct Hello {
    #[doc = "Application name."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub app: ::std::option::Option<::std::string::String>,
    #[doc = "Capabilities (open strings; see `KNOWN_CAPABILITIES`)."]
    pub capabilities: ::std::vec::Vec<::std::string::String>,
    #[doc = "Session token from an earlier `hello.ack`, on reconnect."]
    #[serde(
        rename = "resumeToken",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub resume_token: ::std::option::Option<::std::string::String>,
    #[doc = "Instrumenting SDK."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub sdk: ::std::option::Option<SdkInfo>,
    #[doc = "Versions."]
    pub versions: ClientVersions,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`hello.ack` (§1 Handshake, viewer → app): the viewer's whole debug state."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct HelloAck {
    #[doc = "Current breakpoints."]
    pub breakpoints: ::std::vec::Vec<BreakpointMatcher>,
    #[doc = "Capabilities."]
    pub capabilities: ::std::vec::Vec<::std::string::String>,
    #[doc = "What the hub itself implements (0.6.0)."]
    #[serde(
        rename = "hubCapabilities",
        default,
        skip_serializing_if = "::std::vec::Vec::is_empty"
    )]
    pub hub_capabilities: ::std::vec::Vec<::std::string::String>,
    #[doc = "Current mode."]
    pub mode: RunMode,
    #[doc = "Token to echo as `resumeToken` on reconnect."]
    #[serde(
        rename = "sessionToken",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub session_token: ::std::option::Option<::std::string::String>,
    #[doc = "Versions."]
    pub versions: ViewerVersions,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "Loop-detection details of a pause (§1 `LoopInfo`)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct LoopInfo {
    #[doc = "Fingerprint of the repeated step."]
    pub fingerprint: ::std::string::String,
    #[doc = "Seq of the first repeat."]
    #[serde(rename = "firstSeq")]
    pub first_seq: i64,
    #[doc = "Loop kind."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub kind: ::std::option::Option<LoopKind>,
    #[doc = "Completed laps (positive)."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub laps: ::std::option::Option<::std::num::NonZeroU64>,
    #[doc = "Seq of the last repeat."]
    #[serde(rename = "lastSeq")]
    pub last_seq: i64,
    #[doc = "Cycle length (positive)."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub period: ::std::option::Option<::std::num::NonZeroU64>,
    #[doc = "How many repeats were seen."]
    pub repeats: i64,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "The kind of detected loop (§1 `LoopInfo.kind`)."]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum LoopKind {
    #[serde(rename = "repeat")]
    Repeat,
    #[serde(rename = "cycle")]
    Cycle,
    #[serde(rename = "error-repeat")]
    ErrorRepeat,
}
impl ::std::fmt::Display for LoopKind {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::Repeat => f.write_str("repeat"),
            Self::Cycle => f.write_str("cycle"),
            Self::ErrorRepeat => f.write_str("error-repeat"),
        }
    }
}
impl ::std::str::FromStr for LoopKind {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "repeat" => Ok(Self::Repeat),
            "cycle" => Ok(Self::Cycle),
            "error-repeat" => Ok(Self::ErrorRepeat),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for LoopKind {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for LoopKind {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`mode.set` (§1 Controls)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct ModeSet {
    #[doc = "New mode."]
    pub mode: RunMode,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`node.error` (§1 Events)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct NodeError {
    #[doc = "The error."]
    pub error: ErrorInfo,
    #[doc = "Time held at gates in ms (≥ 0)."]
    #[serde(
        rename = "heldMs",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub held_ms: ::std::option::Option<f64>,
    #[doc = "Id of this execution of the node."]
    #[serde(
        rename = "instanceId",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub instance_id: ::std::option::Option<::std::string::String>,
    #[doc = "Node id."]
    #[serde(rename = "nodeId")]
    pub node_id: ::std::string::String,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`node.finished` (§1 Events)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct NodeFinished {
    #[doc = "Wall time in ms (≥ 0, fractions allowed)."]
    #[serde(rename = "durationMs")]
    pub duration_ms: f64,
    #[doc = "Time held at gates in ms (≥ 0)."]
    #[serde(
        rename = "heldMs",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub held_ms: ::std::option::Option<f64>,
    #[doc = "Id of this execution of the node."]
    #[serde(
        rename = "instanceId",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub instance_id: ::std::option::Option<::std::string::String>,
    #[doc = "Node id."]
    #[serde(rename = "nodeId")]
    pub node_id: ::std::string::String,
    #[doc = "Output (opaque)."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub output: ::std::option::Option<::serde_json::Value>,
    #[doc = "What redaction removed."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub redaction: ::std::option::Option<RedactionSummary>,
    #[doc = "How the node ended."]
    pub status: RunStatus,
    #[doc = "Token usage."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub usage: ::std::option::Option<TokenUsage>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "The kind of a node (§1 primitives); `chain/retriever` since 0.2.0,\n`server/resource/prompt` since 0.4.0 for MCP. Closed: an unknown kind is invalid."]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum NodeKind {
    #[serde(rename = "agent")]
    Agent,
    #[serde(rename = "llm")]
    Llm,
    #[serde(rename = "tool")]
    Tool,
    #[serde(rename = "chain")]
    Chain,
    #[serde(rename = "retriever")]
    Retriever,
    #[serde(rename = "server")]
    Server,
    #[serde(rename = "resource")]
    Resource,
    #[serde(rename = "prompt")]
    Prompt,
    #[serde(rename = "custom")]
    Custom,
}
impl ::std::fmt::Display for NodeKind {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::Agent => f.write_str("agent"),
            Self::Llm => f.write_str("llm"),
            Self::Tool => f.write_str("tool"),
            Self::Chain => f.write_str("chain"),
            Self::Retriever => f.write_str("retriever"),
            Self::Server => f.write_str("server"),
            Self::Resource => f.write_str("resource"),
            Self::Prompt => f.write_str("prompt"),
            Self::Custom => f.write_str("custom"),
        }
    }
}
impl ::std::str::FromStr for NodeKind {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "agent" => Ok(Self::Agent),
            "llm" => Ok(Self::Llm),
            "tool" => Ok(Self::Tool),
            "chain" => Ok(Self::Chain),
            "retriever" => Ok(Self::Retriever),
            "server" => Ok(Self::Server),
            "resource" => Ok(Self::Resource),
            "prompt" => Ok(Self::Prompt),
            "custom" => Ok(Self::Custom),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for NodeKind {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for NodeKind {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`node.started` (§1 Events)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct NodeStarted {
    #[doc = "Whether the viewer should collapse the node."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub collapsed: ::std::option::Option<bool>,
    #[doc = "Input (opaque; `null` is a value, distinct from absent)."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub input: ::std::option::Option<::serde_json::Value>,
    #[doc = "Id of this execution of the node."]
    #[serde(rename = "instanceId")]
    pub instance_id: ::std::string::String,
    #[doc = "Node kind."]
    pub kind: NodeKind,
    #[doc = "Display name."]
    pub name: ::std::string::String,
    #[doc = "Node id."]
    #[serde(rename = "nodeId")]
    pub node_id: ::std::string::String,
    #[doc = "Parent node id."]
    #[serde(
        rename = "parentId",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub parent_id: ::std::option::Option<::std::string::String>,
    #[doc = "What redaction removed."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub redaction: ::std::option::Option<RedactionSummary>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`node.token` (§1 Events): streamed model output."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct NodeToken {
    #[doc = "Deltas (may be empty)."]
    pub deltas: ::std::vec::Vec<TokenDelta>,
    #[doc = "Node id."]
    #[serde(rename = "nodeId")]
    pub node_id: ::std::string::String,
    #[doc = "What redaction removed."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub redaction: ::std::option::Option<RedactionSummary>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "Where a gate sits around a node (§1 `PausePoint`)."]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum PausePoint {
    #[serde(rename = "before")]
    Before,
    #[serde(rename = "after")]
    After,
    #[serde(rename = "error")]
    Error,
}
impl ::std::fmt::Display for PausePoint {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::Before => f.write_str("before"),
            Self::After => f.write_str("after"),
            Self::Error => f.write_str("error"),
        }
    }
}
impl ::std::str::FromStr for PausePoint {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "before" => Ok(Self::Before),
            "after" => Ok(Self::After),
            "error" => Ok(Self::Error),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for PausePoint {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for PausePoint {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "Why a gate paused (§1 `PauseReason`)."]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum PauseReason {
    #[serde(rename = "breakpoint")]
    Breakpoint,
    #[serde(rename = "error")]
    Error,
    #[serde(rename = "step")]
    Step,
    #[serde(rename = "loop")]
    Loop,
}
impl ::std::fmt::Display for PauseReason {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::Breakpoint => f.write_str("breakpoint"),
            Self::Error => f.write_str("error"),
            Self::Step => f.write_str("step"),
            Self::Loop => f.write_str("loop"),
        }
    }
}
impl ::std::str::FromStr for PauseReason {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "breakpoint" => Ok(Self::Breakpoint),
            "error" => Ok(Self::Error),
            "step" => Ok(Self::Step),
            "loop" => Ok(Self::Loop),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for PauseReason {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for PauseReason {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "What redaction removed (§1 `RedactionSummary`; senders add `failed: true`)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct RedactionSummary {
    #[doc = "How many values were redacted."]
    pub count: i64,
    #[doc = "Which keys were redacted."]
    pub keys: ::std::vec::Vec<::std::string::String>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "Why the app refused an `exec.resume` (§1 `RefusalCode`, 0.6.0)."]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum RefusalCode {
    #[serde(rename = "schema")]
    Schema,
    #[serde(rename = "shape")]
    Shape,
    #[serde(rename = "placeholder")]
    Placeholder,
    #[serde(rename = "truncated")]
    Truncated,
    #[serde(rename = "disabled")]
    Disabled,
    #[serde(rename = "unsupported")]
    Unsupported,
}
impl ::std::fmt::Display for RefusalCode {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::Schema => f.write_str("schema"),
            Self::Shape => f.write_str("shape"),
            Self::Placeholder => f.write_str("placeholder"),
            Self::Truncated => f.write_str("truncated"),
            Self::Disabled => f.write_str("disabled"),
            Self::Unsupported => f.write_str("unsupported"),
        }
    }
}
impl ::std::str::FromStr for RefusalCode {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "schema" => Ok(Self::Schema),
            "shape" => Ok(Self::Shape),
            "placeholder" => Ok(Self::Placeholder),
            "truncated" => Ok(Self::Truncated),
            "disabled" => Ok(Self::Disabled),
            "unsupported" => Ok(Self::Unsupported),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for RefusalCode {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for RefusalCode {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "What the viewer asks a held gate to do (§1 `ResumeAction`)."]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum ResumeAction {
    #[serde(rename = "continue")]
    Continue,
    #[serde(rename = "retry")]
    Retry,
    #[serde(rename = "inject")]
    Inject,
    #[serde(rename = "abort")]
    Abort,
}
impl ::std::fmt::Display for ResumeAction {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::Continue => f.write_str("continue"),
            Self::Retry => f.write_str("retry"),
            Self::Inject => f.write_str("inject"),
            Self::Abort => f.write_str("abort"),
        }
    }
}
impl ::std::str::FromStr for ResumeAction {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "continue" => Ok(Self::Continue),
            "retry" => Ok(Self::Retry),
            "inject" => Ok(Self::Inject),
            "abort" => Ok(Self::Abort),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for ResumeAction {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for ResumeAction {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`run.finished` (§1 Events). No rule ties `error` to `status`."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct RunFinished {
    #[doc = "Why it failed."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub error: ::std::option::Option<ErrorInfo>,
    #[doc = "How the run ended."]
    pub status: RunStatus,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "Run id; `*` for frames that belong to no run. Must not contain U+0000 or a lone surrogate (not expressible here; see the known-disagreements file)."]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
#[serde(transparent)]
pub struct RunId(pub ::std::string::String);
impl ::std::ops::Deref for RunId {
    type Target = ::std::string::String;
    fn deref(&self) -> &::std::string::String {
        &self.0
    }
}
impl ::std::convert::From<RunId> for ::std::string::String {
    fn from(value: RunId) -> Self {
        value.0
    }
}
impl ::std::convert::From<::std::string::String> for RunId {
    fn from(value: ::std::string::String) -> Self {
        Self(value)
    }
}
impl ::std::fmt::Display for RunId {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        self.0.fmt(f)
    }
}
impl ::std::str::FromStr for RunId {
    type Err = ::std::convert::Infallible;
    fn from_str(value: &str) -> ::std::result::Result<Self, Self::Err> {
        Ok(Self(value.to_string()))
    }
}
#[doc = "Run mode (§1 `RunMode`): `step` pauses at every `before` and `error` point."]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum RunMode {
    #[serde(rename = "run")]
    Run,
    #[serde(rename = "step")]
    Step,
}
impl ::std::fmt::Display for RunMode {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::Run => f.write_str("run"),
            Self::Step => f.write_str("step"),
        }
    }
}
impl ::std::str::FromStr for RunMode {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "run" => Ok(Self::Run),
            "step" => Ok(Self::Step),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for RunMode {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for RunMode {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`run.started` (§1 Events)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct RunStarted {
    #[doc = "Application name."]
    pub app: ::std::string::String,
    #[doc = "Free-form run metadata (an object; values opaque)."]
    #[serde(default, skip_serializing_if = "::serde_json::Map::is_empty")]
    pub meta: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
    #[doc = "Instrumenting SDK."]
    pub sdk: SdkInfo,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "How a run or node ended (§1 `RunStatus`)."]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum RunStatus {
    #[serde(rename = "ok")]
    Ok,
    #[serde(rename = "error")]
    Error,
    #[serde(rename = "aborted")]
    Aborted,
}
impl ::std::fmt::Display for RunStatus {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::Ok => f.write_str("ok"),
            Self::Error => f.write_str("error"),
            Self::Aborted => f.write_str("aborted"),
        }
    }
}
impl ::std::str::FromStr for RunStatus {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "ok" => Ok(Self::Ok),
            "error" => Ok(Self::Error),
            "aborted" => Ok(Self::Aborted),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for RunStatus {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for RunStatus {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "`SafeUint`"]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
#[serde(transparent)]
pub struct SafeUint(pub i64);
impl ::std::ops::Deref for SafeUint {
    type Target = i64;
    fn deref(&self) -> &i64 {
        &self.0
    }
}
impl ::std::convert::From<SafeUint> for i64 {
    fn from(value: SafeUint) -> Self {
        value.0
    }
}
impl ::std::convert::From<i64> for SafeUint {
    fn from(value: i64) -> Self {
        Self(value)
    }
}
impl ::std::fmt::Display for SafeUint {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        self.0.fmt(f)
    }
}
impl ::std::str::FromStr for SafeUint {
    type Err = <i64 as ::std::str::FromStr>::Err;
    fn from_str(value: &str) -> ::std::result::Result<Self, Self::Err> {
        Ok(Self(value.parse()?))
    }
}
impl ::std::convert::TryFrom<&str> for SafeUint {
    type Error = <i64 as ::std::str::FromStr>::Err;
    fn try_from(value: &str) -> ::std::result::Result<Self, Self::Error> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<String> for SafeUint {
    type Error = <i64 as ::std::str::FromStr>::Err;
    fn try_from(value: String) -> ::std::result::Result<Self, Self::Error> {
        value.parse()
    }
}
#[doc = "The instrumenting SDK (§1 `SdkInfo`)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct SdkInfo {
    #[doc = "SDK name."]
    pub name: ::std::string::String,
    #[doc = "SDK version."]
    pub version: ::std::string::String,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "Smart-pause details (§1 `SmartInfo`)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct SmartInfo {
    #[doc = "Human-readable detail."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub detail: ::std::option::Option<::std::string::String>,
    #[doc = "Rule that fired."]
    pub rule: SmartRule,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "The rule of a smart pause (§1 `SmartInfo.rule`)."]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum SmartRule {
    #[serde(rename = "error-result")]
    ErrorResult,
    #[serde(rename = "truncated-tool-call")]
    TruncatedToolCall,
}
impl ::std::fmt::Display for SmartRule {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::ErrorResult => f.write_str("error-result"),
            Self::TruncatedToolCall => f.write_str("truncated-tool-call"),
        }
    }
}
impl ::std::str::FromStr for SmartRule {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "error-result" => Ok(Self::ErrorResult),
            "truncated-tool-call" => Ok(Self::TruncatedToolCall),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for SmartRule {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for SmartRule {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "The channel of a token delta (§1 `TokenDelta.t`)."]
#[derive(
    :: serde :: Deserialize,
    :: serde :: Serialize,
    Clone,
    Copy,
    Debug,
    Eq,
    Hash,
    Ord,
    PartialEq,
    PartialOrd,
)]
pub enum TokenChannel {
    #[serde(rename = "text")]
    Text,
    #[serde(rename = "reasoning")]
    Reasoning,
    #[serde(rename = "tool-args")]
    ToolArgs,
}
impl ::std::fmt::Display for TokenChannel {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        match *self {
            Self::Text => f.write_str("text"),
            Self::Reasoning => f.write_str("reasoning"),
            Self::ToolArgs => f.write_str("tool-args"),
        }
    }
}
impl ::std::str::FromStr for TokenChannel {
    type Err = self::error::ConversionError;
    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        match value {
            "text" => Ok(Self::Text),
            "reasoning" => Ok(Self::Reasoning),
            "tool-args" => Ok(Self::ToolArgs),
            _ => Err("invalid value".into()),
        }
    }
}
impl ::std::convert::TryFrom<&str> for TokenChannel {
    type Error = self::error::ConversionError;
    fn try_from(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
impl ::std::convert::TryFrom<::std::string::String> for TokenChannel {
    type Error = self::error::ConversionError;
    fn try_from(
        value: ::std::string::String,
    ) -> ::std::result::Result<Self, self::error::ConversionError> {
        value.parse()
    }
}
#[doc = "One streamed piece of model output (§1 `TokenDelta`)."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct TokenDelta {
    #[doc = "Channel."]
    pub t: TokenChannel,
    #[doc = "Text of this piece."]
    pub v: ::std::string::String,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "Token counts of an LLM call (§1 `TokenUsage`): nonnegative safe integers."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct TokenUsage {
    #[doc = "Tokens read from a prompt cache."]
    #[serde(
        rename = "cacheReadTokens",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub cache_read_tokens: ::std::option::Option<i64>,
    #[doc = "Tokens written to a prompt cache."]
    #[serde(
        rename = "cacheWriteTokens",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub cache_write_tokens: ::std::option::Option<i64>,
    #[doc = "Whether the counts include child nodes."]
    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
    pub inclusive: ::std::option::Option<bool>,
    #[doc = "Prompt tokens."]
    #[serde(rename = "inputTokens")]
    pub input_tokens: i64,
    #[doc = "Completion tokens."]
    #[serde(rename = "outputTokens")]
    pub output_tokens: i64,
    #[doc = "Reasoning tokens."]
    #[serde(
        rename = "reasoningTokens",
        skip_serializing_if = "::std::option::Option::is_none"
    )]
    pub reasoning_tokens: ::std::option::Option<i64>,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = "`hello.ack.versions`: protocol and viewer."]
#[derive(:: serde :: Deserialize, :: serde :: Serialize, Clone, Debug)]
pub struct ViewerVersions {
    #[doc = "Protocol version the viewer speaks."]
    pub protocol: i64,
    #[doc = "Viewer version."]
    pub viewer: ::std::string::String,
    #[serde(flatten)]
    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}
#[doc = " Error types."]
pub mod error {
    #[doc = r" Error from a `TryFrom` or `FromStr` implementation."]
    pub struct ConversionError(::std::borrow::Cow<'static, str>);
    impl ::std::error::Error for ConversionError {}
    impl ::std::fmt::Display for ConversionError {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> Result<(), ::std::fmt::Error> {
            ::std::fmt::Display::fmt(&self.0, f)
        }
    }
    impl ::std::fmt::Debug for ConversionError {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> Result<(), ::std::fmt::Error> {
            ::std::fmt::Debug::fmt(&self.0, f)
        }
    }
    impl From<&'static str> for ConversionError {
        fn from(value: &'static str) -> Self {
            Self(value.into())
        }
    }
    impl From<String> for ConversionError {
        fn from(value: String) -> Self {
            Self(value.into())
        }
    }
}
