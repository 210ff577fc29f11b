/**
 * THE HELD-OUT JUDGED SET. Never tune a rule, weight, synonym or vocabulary entry to it: tune on
 * the development set (bench/relevance/judgments.ts) only. These queries and grades were written
 * from the held-out corpus (./corpus.ts) and what a signposting adviser would hand over, without
 * looking at what the search returns and without reading the search code, so that its figures
 * say how well the search generalises to services and words nobody tuned it on.
 *
 * What a person types into a signposting site, the class of query it stands for, and the services
 * that answer it, graded 2 (what they are looking for) or 1 (useful, not the first thing they
 * want); every other service is graded 0. A query of class `none` should find nothing: it asks for
 * something outside human services or not offered here, or has nothing searchable in it.
 *
 * `relevant` is a list of service keys, `key` for grade 2 and `key:1` for grade 1.
 */

export const HELDOUT_QUERY_CLASSES = [
  'first_person',
  'lay',
  'crisis',
  'typo_short',
  'typo_long',
  'compound',
  'abbreviation',
  'place_group',
  'name',
  'none',
] as const;
export type HeldoutQueryClass = (typeof HELDOUT_QUERY_CLASSES)[number];

export type HeldoutJudgment = { query: string; class: HeldoutQueryClass; grades: Record<string, 1 | 2> };

function q(query: string, queryClass: HeldoutQueryClass, relevant = ''): HeldoutJudgment {
  const grades: Record<string, 1 | 2> = {};
  for (const entry of relevant.split(/\s+/).filter(Boolean)) {
    const [key, grade] = entry.split(':') as [string, string | undefined];
    grades[key] = grade === '1' ? 1 : 2;
  }
  return { query, class: queryClass, grades };
}

const FOOD_BANKS = 'beeston-foodbank linden-pantry memphis-food-pantry tucson-food-distribution';
const SUICIDE_LINES = 'staying-safe-line tucson-crisis-center text-support';
const ABUSE = 'wales-abuse-helpline leeds-dv-outreach memphis-safe-haven';
const RAPE = 'norfolk-sarc spokane-sa-hotline';

export const HELDOUT_JUDGMENTS: readonly HeldoutJudgment[] = [
  // A situation, in the first person.
  q('my partner hits me', 'first_person', `${ABUSE} male-victims:1`),
  q(
    "I've got nowhere to sleep tonight",
    'first_person',
    'cold-weather-shelter leeds-housing-advice cardiff-housing-solutions columbus-family-housing:1 belfast-youth-housing:1 runaway-line:1 memphis-211:1',
  ),
  q(
    "I can't afford food for my kids",
    'first_person',
    `${FOOD_BANKS} swansea-food-share splott-pantry:1 holiday-lunches:1 breakfast-club:1 snap-enrollment:1 wic-eastside:1 wales-assistance-fund:1 norfolk-crisis-grants:1 memphis-211:1`,
  ),
  q(
    'I keep thinking about killing myself',
    'first_person',
    `${SUICIDE_LINES} evening-sanctuary:1 self-harm-group:1`,
  ),
  q(
    'my landlord is trying to kick me out',
    'first_person',
    'plymouth-renters memphis-housing-court leeds-housing-advice cardiff-housing-solutions:1 columbus-prevention:1 ca-cardiff:1 ca-plymouth:1 tucson-legal:1',
  ),
  q(
    "I'm behind on my council tax",
    'first_person',
    'leeds-council-tax-arrears norwich-council-tax-reduction:1 ca-cardiff:1 ca-plymouth:1 wales-debt-line:1',
  ),
  q(
    "I've run out of gas and electric on my meter",
    'first_person',
    'leeds-fuel-topup wales-assistance-fund:1 norfolk-crisis-grants:1 columbus-heap:1 wales-energy-advice:1',
  ),
  q("my dog needs food and I can't afford it", 'first_person', 'paws-pantry norwich-animal-clinic:1'),
  q(
    'I look after my mum who has dementia',
    'first_person',
    'dementia-carers leeds-carers columbus-respite:1',
  ),
  q(
    "I think I'm pregnant and don't know what to do",
    'first_person',
    'pregnancy-options swansea-midwife:1 tucson-birth-control:1',
  ),
  q(
    'my son is being bullied at school',
    'first_person',
    'childrens-helpline cardiff-family-hub:1 teen-talk:1',
  ),
  q(
    "I lost my job and can't pay my bills",
    'first_person',
    'ca-cardiff ca-plymouth leeds-benefits-check uc-help plymouth-job-club:1 columbus-career-center:1 wales-debt-line:1 tucson-rent-utility:1',
  ),
  q("I drink every day and can't stop", 'first_person', 'leeds-recovery memphis-detox family-recovery:1'),
  q(
    'my husband controls all our money',
    'first_person',
    'wales-abuse-helpline leeds-dv-outreach memphis-safe-haven:1',
  ),
  q(
    "I'm 17 and my parents threw me out",
    'first_person',
    'runaway-line belfast-youth-housing leeds-housing-advice:1 cardiff-housing-solutions:1 childrens-helpline:1',
  ),
  q(
    "my mum died and I can't cope",
    'first_person',
    'norfolk-bereavement tucson-child-grief:1 leeds-talking-therapies:1',
  ),
  q("I can't read very well", 'first_person', 'plymouth-reading spokane-hse:1'),
  q(
    "I've just arrived in the UK and want to claim asylum",
    'first_person',
    'leeds-asylum cardiff-sanctuary-hub:1',
  ),
  q(
    "I need to get to my hospital appointment but can't drive",
    'first_person',
    'norfolk-car-scheme tucson-accessible-transit:1 spokane-reduced-fare:1',
  ),
  q(
    'my teeth are killing me',
    'first_person',
    'cardiff-urgent-dental spokane-dental:1 norfolk-find-dentist:1',
  ),
  q(
    "I'm gay and want to meet people like me",
    'first_person',
    'columbus-rainbow queer-youth-night:1 rainbow-listening:1 belfast-trans:1',
  ),
  q('I gamble all my wages', 'first_person', 'gambling-clinic wales-debt-line:1'),
  q(
    "I'm a veteran and struggling since I left the army",
    'first_person',
    'plymouth-veterans-hub ni-veterans-therapy tucson-veterans',
  ),
  q(
    "I'm lonely since my wife died",
    'first_person',
    'friendly-calls norfolk-bereavement memphis-senior-center:1 open-table-cafe:1 mates-talking:1',
  ),
  q('my daughter has stopped eating', 'first_person', 'nourish-belfast teen-talk:1'),
  // A need in lay words.
  q(
    'help with bills',
    'lay',
    'tucson-rent-utility columbus-heap wales-energy-advice water-assist norwich-council-tax-reduction ca-cardiff:1 ca-plymouth:1 leeds-fuel-topup:1 tucson-internet:1 columbus-prevention:1 leeds-council-tax-arrears:1',
  ),
  q(
    'somewhere to get a cheap meal',
    'lay',
    'open-table-cafe memphis-senior-center:1 kirkgate-day-centre:1 memphis-food-pantry:1 belfast-soup-run:1',
  ),
  q(
    'free food',
    'lay',
    `${FOOD_BANKS} swansea-food-share splott-pantry:1 belfast-soup-run:1 holiday-lunches:1 breakfast-club:1 kirkgate-day-centre:1`,
  ),
  q(
    'someone to talk to',
    'lay',
    'leeds-talking-therapies norwich-counselling text-support friendly-calls rainbow-listening:1 staying-safe-line:1 mates-talking:1 teen-talk:1 childrens-helpline:1',
  ),
  q(
    'money worries',
    'lay',
    'wales-debt-line ca-cardiff ca-plymouth money-coaching credit-counseling leeds-benefits-check:1 belfast-credit-union:1',
  ),
  q('cheap furniture', 'lay', 'leeds-furniture norfolk-crisis-grants:1 wales-assistance-fund:1'),
  q(
    'free clothes',
    'lay',
    'memphis-clothes spokane-coats:1 uniform-exchange:1 cardiff-sanctuary-hub:1 bundles-for-babies:1 columbus-rainbow:1',
  ),
  q(
    'help paying for heating',
    'lay',
    'columbus-heap wales-energy-advice leeds-fuel-topup tucson-rent-utility:1 belfast-warm-space:1 wales-assistance-fund:1 norfolk-crisis-grants:1',
  ),
  q(
    "can't afford the dentist",
    'lay',
    'spokane-dental norfolk-find-dentist kids-dental-van:1 cardiff-urgent-dental:1',
  ),
  q(
    'help getting a job',
    'lay',
    'plymouth-job-club columbus-career-center second-chance:1 supported-internships:1 cardiff-apprenticeships:1 norwich-volunteering:1 plymouth-bike-works:1',
  ),
  q('stop drinking', 'lay', 'leeds-recovery memphis-detox family-recovery:1'),
  q('get off drugs', 'lay', 'leeds-recovery memphis-detox na-cardiff tucson-mat'),
  q('nappies for my baby', 'lay', 'bundles-for-babies spokane-diapers wic-eastside:1'),
  q('cheap bus travel', 'lay', 'spokane-reduced-fare norfolk-car-scheme:1 tucson-accessible-transit:1'),
  q('learn to use a computer', 'lay', 'swansea-computer-help cardiff-free-laptops:1'),
  q('need a bed and a cooker', 'lay', 'leeds-furniture wales-assistance-fund norfolk-crisis-grants'),
  q('hearing voices', 'lay', 'spokane-behavioral tucson-crisis-center:1 leeds-talking-therapies:1'),
  q('marriage breaking up', 'lay', 'separation-mediation norwich-family-law:1'),
  q('pay less council tax', 'lay', 'norwich-council-tax-reduction leeds-council-tax-arrears:1'),
  q('morning after pill', 'lay', 'tucson-birth-control norfolk-sarc:1'),
  q('where can I get a wheelchair', 'lay', 'norfolk-mobility-loans'),
  q('sacked unfairly', 'lay', 'belfast-employment-law spokane-workers-rights ca-cardiff:1 ca-plymouth:1'),
  q('help with a funeral', 'lay', 'funeral-costs norfolk-bereavement:1'),
  // A risk to life or safety.
  q('sucide hotline', 'crisis', SUICIDE_LINES),
  q(
    'suicidal thoughts',
    'crisis',
    `${SUICIDE_LINES} evening-sanctuary:1 self-harm-group:1 spokane-behavioral:1`,
  ),
  q('want to end my life', 'crisis', `${SUICIDE_LINES} evening-sanctuary:1`),
  q('self harm', 'crisis', 'self-harm-group text-support staying-safe-line:1 tucson-crisis-center:1'),
  q('cutting myself', 'crisis', 'self-harm-group text-support staying-safe-line:1'),
  q(
    'domestic violence hotline',
    'crisis',
    'wales-abuse-helpline memphis-safe-haven leeds-dv-outreach:1 male-victims:1',
  ),
  q('domestic abuse refuge', 'crisis', 'wales-abuse-helpline memphis-safe-haven leeds-dv-outreach:1'),
  q('domestic violance help', 'crisis', `${ABUSE} male-victims:1`),
  q('scared of my boyfriend', 'crisis', ABUSE),
  q('raped', 'crisis', RAPE),
  q('I was raped last night', 'crisis', RAPE),
  q('sexual assult', 'crisis', RAPE),
  q('report child abuse', 'crisis', 'leeds-child-concern shelby-child-hotline childrens-helpline:1'),
  q(
    'emergency shelter tonight',
    'crisis',
    'cold-weather-shelter columbus-family-housing leeds-housing-advice cardiff-housing-solutions:1 runaway-line:1 belfast-youth-housing:1 memphis-safe-haven:1 wales-abuse-helpline:1',
  ),
  q('overdose', 'crisis', 'naloxone memphis-detox:1'),
  q(
    'mental health crisis',
    'crisis',
    'tucson-crisis-center evening-sanctuary staying-safe-line:1 text-support:1 spokane-behavioral:1',
  ),
  q('crisis line', 'crisis', `${SUICIDE_LINES} evening-sanctuary:1`),
  q('ran away from home', 'crisis', 'runaway-line childrens-helpline:1 belfast-youth-housing:1'),
  q('someone is forcing me to work', 'crisis', 'modern-slavery'),
  q('elder abuse', 'crisis', 'adult-protective'),
  // A typo in a short word.
  q(
    'fod pantry',
    'typo_short',
    'linden-pantry memphis-food-pantry splott-pantry tucson-food-distribution:1 beeston-foodbank:1 swansea-food-share:1',
  ),
  q(
    'deb help',
    'typo_short',
    'wales-debt-line credit-counseling ca-cardiff ca-plymouth mortgage-arrears:1 leeds-council-tax-arrears:1 money-coaching:1',
  ),
  q('jbo club', 'typo_short', 'plymouth-job-club columbus-career-center:1'),
  q(
    'rnet help',
    'typo_short',
    'columbus-prevention tucson-rent-utility spokane-vouchers:1 plymouth-renters:1 memphis-housing-court:1',
  ),
  q('pet fod', 'typo_short', 'paws-pantry'),
  q(
    'free meels',
    'typo_short',
    'open-table-cafe holiday-lunches breakfast-club senior-meal-delivery:1 memphis-senior-center:1 kirkgate-day-centre:1 belfast-soup-run:1',
  ),
  q('bus pas', 'typo_short', 'spokane-reduced-fare'),
  q('drgus', 'typo_short', 'leeds-recovery memphis-detox na-cardiff tucson-mat naloxone:1'),
  q('lona', 'typo_short', 'belfast-credit-union'),
  q('baybe clothes', 'typo_short', 'bundles-for-babies'),
  q('caot', 'typo_short', 'spokane-coats memphis-clothes:1'),
  q('gas bil', 'typo_short', 'columbus-heap wales-energy-advice leeds-fuel-topup tucson-rent-utility'),
  q(
    'legl aid',
    'typo_short',
    'tucson-legal ca-cardiff:1 ca-plymouth:1 norwich-family-law:1 memphis-housing-court:1',
  ),
  q('std tset', 'typo_short', 'tucson-birth-control belfast-sti-testing memphis-prep:1 columbus-rainbow:1'),
  q('cash hlep', 'typo_short', 'tanf-cash wales-assistance-fund:1 norfolk-crisis-grants:1'),
  // A typo in a longer word.
  q(
    'councelling',
    'typo_long',
    'norwich-counselling leeds-talking-therapies teen-talk:1 norfolk-bereavement:1 spokane-behavioral:1 pregnancy-options:1',
  ),
  q(
    'bereavment support',
    'typo_long',
    'norfolk-bereavement tucson-child-grief support-after-suicide:1 baby-loss:1',
  ),
  q(
    'homeles shelter',
    'typo_long',
    'cold-weather-shelter columbus-family-housing leeds-housing-advice:1 cardiff-housing-solutions:1 kirkgate-day-centre:1',
  ),
  q('alchohol recovery', 'typo_long', 'leeds-recovery memphis-detox family-recovery:1'),
  q(
    'adiction',
    'typo_long',
    'leeds-recovery memphis-detox tucson-mat na-cardiff gambling-clinic:1 family-recovery:1',
  ),
  q('imigration lawyer', 'typo_long', 'columbus-immigration leeds-asylum:1'),
  q('disabilty equipment', 'typo_long', 'norfolk-mobility-loans plymouth-adaptations:1 belfast-sight-loss:1'),
  q('psycologist', 'typo_long', 'spokane-behavioral leeds-talking-therapies'),
  q(
    'pregnent',
    'typo_long',
    'swansea-midwife pregnancy-options columbus-clinic:1 wic-eastside:1 tucson-birth-control:1 mums-mental-health:1 teen-parents:1',
  ),
  q('apprentiships', 'typo_long', 'cardiff-apprenticeships'),
  q(
    'benifits advice',
    'typo_long',
    'leeds-benefits-check ca-cardiff ca-plymouth pip-appeals:1 uc-help:1 later-life-line:1',
  ),
  q(
    'unemployement',
    'typo_long',
    'plymouth-job-club columbus-career-center leeds-benefits-check:1 uc-help:1',
  ),
  q(
    'chidlcare',
    'typo_long',
    'norfolk-free-childcare shelby-childcare-help columbus-prek:1 stay-and-play:1 breakfast-club:1',
  ),
  q('furnature', 'typo_long', 'leeds-furniture norfolk-crisis-grants:1 wales-assistance-fund:1'),
  q(
    'eviciton',
    'typo_long',
    'memphis-housing-court plymouth-renters columbus-prevention leeds-housing-advice:1 tucson-legal:1 ca-cardiff:1 ca-plymouth:1',
  ),
  q('veterns', 'typo_long', 'plymouth-veterans-hub tucson-veterans ni-veterans-therapy'),
  q('transgendre', 'typo_long', 'belfast-trans columbus-rainbow:1 rainbow-listening:1 queer-youth-night:1'),
  // Two needs, or a need and a detail; one word or two.
  q('free dentist for kids', 'compound', 'kids-dental-van norfolk-find-dentist:1'),
  q('food bank', 'compound', `${FOOD_BANKS} splott-pantry:1 swansea-food-share:1 memphis-211:1`),
  q('foodbank', 'compound', `${FOOD_BANKS} splott-pantry:1 swansea-food-share:1 memphis-211:1`),
  q(
    'fuel bank',
    'compound',
    'leeds-fuel-topup columbus-heap:1 wales-assistance-fund:1 norfolk-crisis-grants:1',
  ),
  q('pet food bank', 'compound', 'paws-pantry'),
  q(
    'low cost counselling',
    'compound',
    'norwich-counselling leeds-talking-therapies teen-talk:1 spokane-behavioral:1 norfolk-bereavement:1',
  ),
  q(
    'debt advice and benefits check',
    'compound',
    'ca-cardiff ca-plymouth leeds-benefits-check wales-debt-line',
  ),
  q('mental health support for new mums', 'compound', 'mums-mental-health swansea-midwife:1'),
  q('rent and utility help', 'compound', 'tucson-rent-utility columbus-prevention:1 columbus-heap:1'),
  q('stop smoking', 'compound', 'stop-smoking'),
  q('homework help', 'compound', 'belfast-homework'),
  q('breakfastclub', 'compound', 'breakfast-club'),
  q('childminder', 'compound', 'norfolk-free-childcare shelby-childcare-help:1'),
  q(
    'drop in centre',
    'compound',
    'kirkgate-day-centre shankill-teen-dropin:1 belfast-trans:1 leeds-asylum:1 cardiff-sanctuary-hub:1 plymouth-veterans-hub:1',
  ),
  q(
    'legal aid housing',
    'compound',
    'memphis-housing-court plymouth-renters tucson-legal ca-cardiff:1 ca-plymouth:1',
  ),
  q('HIV test', 'compound', 'belfast-sti-testing memphis-prep columbus-rainbow:1 tucson-birth-control:1'),
  q('school uniform', 'compound', 'uniform-exchange'),
  q('winter coats for kids', 'compound', 'spokane-coats memphis-clothes:1'),
  q('free laptop', 'compound', 'cardiff-free-laptops tucson-internet:1'),
  q('tax return help', 'compound', 'columbus-tax-help'),
  q('free glasses', 'compound', 'tucson-vision'),
  q('free period products', 'compound', 'cardiff-period-dignity'),
  q('respite care', 'compound', 'columbus-respite leeds-carers:1'),
  q(
    'sexual health clinic',
    'compound',
    'belfast-sti-testing tucson-birth-control memphis-prep:1 norfolk-sarc:1',
  ),
  // Abbreviations a person would really type.
  q('SNAP', 'abbreviation', 'snap-enrollment'),
  q('ESOL', 'abbreviation', 'leeds-esol memphis-conversation:1 cardiff-sanctuary-hub:1 tucson-citizenship:1'),
  q('DV', 'abbreviation', `${ABUSE} male-victims:1 safe-paws:1`),
  q('CAB', 'abbreviation', 'ca-cardiff ca-plymouth'),
  q('PIP', 'abbreviation', 'pip-appeals leeds-benefits-check:1'),
  q('SEND', 'abbreviation', 'swansea-sen-parents belfast-autism-families:1 supported-internships:1'),
  q('GP', 'abbreviation', 'leeds-gp-access columbus-clinic:1'),
  q('AA', 'abbreviation', 'leeds-recovery na-cardiff:1 family-recovery:1'),
  q('UC', 'abbreviation', 'uc-help leeds-benefits-check:1 ca-cardiff:1 ca-plymouth:1'),
  q('ESA', 'abbreviation', 'pip-appeals leeds-benefits-check:1'),
  q('WIC', 'abbreviation', 'wic-eastside'),
  q('GED', 'abbreviation', 'spokane-hse'),
  q('PTSD', 'abbreviation', 'ni-veterans-therapy plymouth-veterans-hub:1'),
  q(
    'LGBTQ',
    'abbreviation',
    'columbus-rainbow queer-youth-night rainbow-listening belfast-trans memphis-prep:1',
  ),
  q('STD', 'abbreviation', 'tucson-birth-control belfast-sti-testing memphis-prep:1'),
  q('BSL', 'abbreviation', 'leeds-deaf'),
  q('ADHD', 'abbreviation', 'belfast-autism-families swansea-sen-parents:1'),
  q('NHS dentist', 'abbreviation', 'norfolk-find-dentist cardiff-urgent-dental'),
  q('A&E', 'abbreviation', 'plymouth-minor-injuries'),
  q('DACA', 'abbreviation', 'columbus-immigration'),
  q('CBT', 'abbreviation', 'leeds-talking-therapies'),
  // A need with a place or a group of people.
  q('food bank in Leeds', 'place_group', 'beeston-foodbank'),
  q('food bank cardiff', 'place_group', 'splott-pantry wales-assistance-fund:1'),
  q('food pantry columbus ohio', 'place_group', 'linden-pantry'),
  q('homeless shelter spokane', 'place_group', 'cold-weather-shelter runaway-line:1'),
  q('housing help for veterans', 'place_group', 'tucson-veterans plymouth-veterans-hub'),
  q('support for young carers', 'place_group', 'plymouth-young-carers leeds-carers:1'),
  q('tucson rent assistance', 'place_group', 'tucson-rent-utility'),
  q('memphis eviction lawyer', 'place_group', 'memphis-housing-court'),
  q('domestic abuse leeds', 'place_group', 'leeds-dv-outreach safe-paws:1'),
  q('counselling norwich', 'place_group', 'norwich-counselling norfolk-bereavement:1'),
  q('debt advice wales', 'place_group', 'wales-debt-line ca-cardiff'),
  q('english classes leeds', 'place_group', 'leeds-esol'),
  q('dentist memphis', 'place_group', 'kids-dental-van'),
  q('help for older people in swansea', 'place_group', 'swansea-home-care later-life-line:1'),
  q('lgbt youth group', 'place_group', 'queer-youth-night'),
  q('mental health support for men', 'place_group', 'mates-talking leeds-talking-therapies:1'),
  q('jobs for ex offenders', 'place_group', 'second-chance'),
  q('refugee support spokane', 'place_group', 'spokane-resettlement'),
  q('free meals for children in the holidays', 'place_group', 'holiday-lunches breakfast-club:1'),
  q('belfast suicide helpline', 'place_group', 'staying-safe-line'),
  q('support for autistic adults', 'place_group', 'autistic-adults day-opportunities:1'),
  q('help for deaf people', 'place_group', 'leeds-deaf'),
  q('grandparents raising grandchildren', 'place_group', 'kinship-carers'),
  q('teen mums', 'place_group', 'teen-parents'),
  q('parenting course leeds', 'place_group', 'calmer-parenting'),
  // A service's or organization's name, as copied from a leaflet.
  q('Kirkgate Day Centre', 'name', 'kirkgate-day-centre'),
  q('Staying Safe Line', 'name', 'staying-safe-line'),
  q('Paws Pantry', 'name', 'paws-pantry'),
  q('Open Table Cafe', 'name', 'open-table-cafe'),
  q('Sonoran Harvest', 'name', 'tucson-food-distribution snap-enrollment'),
  q('Citizens Advice Cardiff', 'name', 'ca-cardiff ca-plymouth:1'),
  q('Safer Homes Wales', 'name', 'wales-abuse-helpline'),
  q('Mates Talking', 'name', 'mates-talking'),
  q('Discretionary Assistance Fund', 'name', 'wales-assistance-fund'),
  q('Recovery College', 'name', 'recovery-college'),
  q('Norfolk SARC', 'name', 'norfolk-sarc'),
  q('Linden Choice Pantry', 'name', 'linden-pantry'),
  q('Mid-South 211', 'name', 'memphis-211'),
  q('Memphis Area Legal Services', 'name', 'memphis-housing-court'),
  q('Bundles for Babies', 'name', 'bundles-for-babies'),
  q('Second Home Furniture', 'name', 'leeds-furniture'),
  q('Queer Youth Night', 'name', 'queer-youth-night'),
  q('Warm Welcome Space', 'name', 'belfast-warm-space'),
  q('Leeds Carers Network', 'name', 'leeds-carers'),
  q('Teen Talk', 'name', 'teen-talk'),
  // Nothing here answers these; the best answer is no result.
  q('car insurance quote', 'none'),
  q('cheap flights to spain', 'none'),
  q('buy a puppy', 'none'),
  q('plumber', 'none'),
  q('football scores', 'none'),
  q('iphone screen repair', 'none'),
  q('mortgage broker', 'none'),
  q('pizza delivery', 'none'),
  q('lottery results', 'none'),
  q('gym membership', 'none'),
  q('dog grooming', 'none'),
  q('wedding venues', 'none'),
  q('used cars for sale', 'none'),
  q('weather tomorrow', 'none'),
  q('the', 'none'),
  q('of and', 'none'),
  q('!!!', 'none'),
  q('😀', 'none'),
];
